"""The episode player: the selected record's robot-learning episode on one timeline.

Every camera of a step side by side, the action, state and reward over the steps with
a cursor at the step shown, the step's instruction and flags, and a timeline: a slider,
play and pause (Space), a step back and on (Left, Right; Shift: ten), the first and the
last step (Home, End), and the speed (steps a second, remembered). Pictures are decoded
ahead on workers (:mod:`.camera_frames`); playback keeps to the clock and skips a step
whose pictures are late rather than falling behind. It follows the window's selection
on its own; a record that keeps no steps says so."""

from __future__ import annotations

import time
from concurrent.futures import Future, ThreadPoolExecutor
from typing import TYPE_CHECKING

from PySide6.QtCore import QSettings, QSize, Qt, QTimer, Signal
from PySide6.QtGui import (
    QColor,
    QHideEvent,
    QKeySequence,
    QPainter,
    QPaintEvent,
    QPixmap,
    QResizeEvent,
    QShortcut,
    QShowEvent,
)
from PySide6.QtWidgets import (
    QComboBox,
    QGridLayout,
    QHBoxLayout,
    QLabel,
    QSizePolicy,
    QSlider,
    QSplitter,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from ...core.decode.episodes import FLAGS, Episode
from ...core.text import plural
from .camera_frames import Frame, FrameCache

if TYPE_CHECKING:
    from ...app.episodes import EpisodeReader
    from ...core.io import Dataset
    from ..host import PanelHost
    from .signal_plots import SignalPlots

SPEEDS = (1, 2, 5, 10, 15, 30, 60)  # steps a second
SPEED_SETTING = "episode-player/speed"
AHEAD = 12  # steps decoded ahead of the one shown


class CameraView(QLabel):
    """One camera's picture, scaled to the room it has (its aspect kept)."""

    def __init__(self, name: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.name = name
        self.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.setMinimumSize(64, 64)
        self.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Ignored)
        self.setStyleSheet("background: #202020; color: #dddddd;")
        self.setToolTip(name)
        self._pixmap: QPixmap | None = None

    def show_frame(self, frame: Frame | None) -> None:
        """Show ``frame`` (None: not decoded yet, the picture before stays)."""
        if frame is None:
            return
        if frame.image is None:
            self._pixmap = None
            self.setText(f"{self.name}\n{frame.problem or 'no picture'}")
            return
        self._pixmap = QPixmap.fromImage(frame.image)
        self._fit()

    def shown(self) -> QPixmap | None:
        """The picture shown, as decoded (None: none)."""
        return self._pixmap

    def paintEvent(self, event: QPaintEvent) -> None:  # noqa: N802
        """The picture, and the camera's name over its top left corner."""
        super().paintEvent(event)
        if self._pixmap is None:
            return  # the name is in the text shown instead
        painter = QPainter(self)
        metrics = painter.fontMetrics()
        caption = self.name.removeprefix("observation/")
        box = metrics.boundingRect(caption).adjusted(-4, -2, 4, 2)
        box.moveTopLeft(self.rect().topLeft())
        painter.fillRect(box, QColor(0, 0, 0, 160))
        painter.setPen(QColor("#eeeeee"))
        painter.drawText(box, Qt.AlignmentFlag.AlignCenter, caption)
        painter.end()

    def resizeEvent(self, event: QResizeEvent) -> None:  # noqa: N802
        super().resizeEvent(event)
        self._fit()

    def _fit(self) -> None:
        if self._pixmap is not None:
            self.setPixmap(
                self._pixmap.scaled(
                    self.size(),
                    Qt.AspectRatioMode.KeepAspectRatio,
                    Qt.TransformationMode.SmoothTransformation,
                )
            )


class EpisodePlayer(QWidget):
    """The player; ``step`` is the step shown, ``episode`` the episode."""

    _read_done = Signal(int, object, object)  # record, episode or None, error or None

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.episode: Episode | None = None
        self.step = 0
        self.shown_step: int | None = None  # the step whose pictures are on screen
        self.settings = QSettings("tfr-viewer", "tfr-viewer")
        self._reader: EpisodeReader | None = None
        self._dataset: Dataset | None = None
        self._frames = FrameCache(self)
        self._frames.ready.connect(self._frame_ready)
        self._cameras: list[CameraView] = []
        self._plots: SignalPlots | None = None
        self._clock: tuple[float, int] | None = None  # (when playing began, from step)
        self._waiting: int | None = None  # the record selected while hidden
        self._asked: tuple[int, int] | None = None  # the record being read, the step then
        self._reading = ThreadPoolExecutor(max_workers=1, thread_name_prefix="tfr-episode")
        self._read_done.connect(self._arrived)
        self.destroyed.connect(lambda *_: self._reading.shutdown(wait=False, cancel_futures=True))
        self._build()

    def sizeHint(self) -> QSize:  # noqa: N802
        return QSize(640, 380)  # room for a grid of cameras and the plots

    def showEvent(self, event: QShowEvent) -> None:  # noqa: N802
        super().showEvent(event)
        if self._waiting is not None:
            QTimer.singleShot(0, lambda: self._selected(self._waiting))

    def hideEvent(self, event: QHideEvent) -> None:  # noqa: N802
        self.pause()
        super().hideEvent(event)

    # -- the widgets -----------------------------------------------------------------
    def _build(self) -> None:
        self.message = QLabel("Select a record that is an episode (its steps under steps/).", self)
        self.message.setWordWrap(True)
        self.grid = QWidget(self)
        self._grid = QGridLayout(self.grid)
        self._grid.setContentsMargins(0, 0, 0, 0)
        self._grid.setSpacing(4)
        self.instruction = QLabel(self)
        self.instruction.setWordWrap(True)
        self.instruction.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.flags = QLabel(self)
        self.play_button = QToolButton(self)
        self.play_button.setText("▶")
        self.play_button.setToolTip("Play or pause (Space)")
        self.play_button.clicked.connect(self.toggle_play)
        self.slider = QSlider(Qt.Orientation.Horizontal, self)
        self.slider.setToolTip("The steps: drag, or Left and Right (Shift: ten), Home, End")
        self.slider.valueChanged.connect(lambda value: self.go_to(value))
        self.position = QLabel(self)
        self.speed = QComboBox(self)
        self.speed.setToolTip("Steps a second while playing")
        for value in SPEEDS:
            self.speed.addItem(f"{value} steps/s", value)
        remembered = self.settings.value(SPEED_SETTING, 10)
        try:
            chosen = SPEEDS.index(int(str(remembered)))
        except ValueError:
            chosen = SPEEDS.index(10)
        self.speed.setCurrentIndex(chosen)
        self.speed.currentIndexChanged.connect(self._speed_changed)
        timeline = QHBoxLayout()
        for widget in (self.play_button, self.slider, self.position, self.speed):
            timeline.addWidget(widget, 1 if widget is self.slider else 0)
        self.upper = QWidget(self)
        upper = QVBoxLayout(self.upper)
        upper.setContentsMargins(0, 0, 0, 0)
        upper.addWidget(self.grid, 1)
        upper.addWidget(self.instruction)
        upper.addWidget(self.flags)
        self.split = QSplitter(Qt.Orientation.Horizontal, self)
        self.split.addWidget(self.upper)
        self.split.setChildrenCollapsible(False)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 4, 4, 4)
        layout.addWidget(self.message)
        layout.addWidget(self.split, 1)
        layout.addLayout(timeline)
        self.timer = QTimer(self)
        self.timer.setInterval(8)  # checks the clock; the speed says which step is due
        self.timer.timeout.connect(self._tick)
        context = Qt.ShortcutContext.WidgetWithChildrenShortcut
        for keys, action in (
            ("Space", self.toggle_play),
            ("Right", lambda: self.go_to(self.step + 1)),
            ("Left", lambda: self.go_to(self.step - 1)),
            ("Shift+Right", lambda: self.go_to(self.step + 10)),
            ("Shift+Left", lambda: self.go_to(self.step - 10)),
            ("Home", lambda: self.go_to(0)),
            ("End", lambda: self.go_to(self.last_step)),
        ):
            shortcut = QShortcut(QKeySequence(keys), self)
            shortcut.setContext(context)
            shortcut.activated.connect(action)
        self._show_parts(False)

    def _show_parts(self, shown: bool) -> None:
        self.message.setVisible(not shown)
        for widget in (self.split, self.play_button, self.slider, self.position, self.speed):
            widget.setVisible(shown)

    def _plots_widget(self) -> SignalPlots:
        if self._plots is None:
            from .signal_plots import SignalPlots  # pyqtgraph loads with the first episode

            self._plots = SignalPlots(self)
            self._plots.moved.connect(self.go_to)
            self.split.addWidget(self._plots)
            self.split.setSizes([3, 2])
        return self._plots

    # -- following the window ----------------------------------------------------------
    def attach(self, host: PanelHost) -> None:
        """Follow ``host``'s session: its dataset and its selected record."""
        session = host.session
        session.opened.connect(self._opened)
        session.indexed.connect(lambda _state: self._selected(session.current))
        session.selected.connect(self._selected)
        session.closed.connect(lambda: self._opened(None))
        if session.dataset is not None:
            self._opened(session.dataset)
            self._selected(session.current)

    def _opened(self, dataset: Dataset | None) -> None:
        self._dataset, self._reader, self._asked = dataset, None, None
        self.set_episode(None)

    def _selected(self, record: int | None) -> None:
        if record is None or self._dataset is None:
            return
        if self.episode is not None and self.episode.record == record:
            return
        if not self.isVisible():  # read when shown: a hidden player decodes nothing
            self._waiting = record
            return
        self._read(record)

    def show_step(self, record: int, step: int) -> None:
        """Show step ``step`` of record ``record``'s episode (a finding's), once read."""
        if self._dataset is None:
            return
        if self.episode is not None and self.episode.record == record:
            self.go_to(step)
            return
        self._read(record, step)

    def _read(self, record: int, step: int = 0) -> None:
        """Read record ``record``'s episode on the reading thread (a long episode, or a
        remote file, never holds up the window); shown from ``step`` when it arrives,
        unless another record was asked for meanwhile."""
        dataset = self._dataset
        assert dataset is not None
        self._waiting = None
        self._asked = (record, step)
        if self._reader is None:
            from ...app.episodes import EpisodeReader

            self._reader = EpisodeReader(dataset)
        reader = self._reader
        self.message.setText(f"Reading record {record}…")
        future = self._reading.submit(reader.episode, record)
        future.add_done_callback(lambda f: self._deliver(record, f))

    def _deliver(self, record: int, future: Future[Episode | None]) -> None:
        error = future.exception()
        try:
            self._read_done.emit(record, None if error else future.result(), error)
        except RuntimeError:  # the player is gone (its window closed)
            pass

    def _arrived(self, record: int, episode: Episode | None, error: BaseException | None) -> None:
        if self._asked is None or self._asked[0] != record:
            return  # another record was asked for meanwhile
        step = self._asked[1]
        self._asked = None
        if error is not None:
            self.set_episode(None, f"Record {record} cannot be read as an episode: {error}")
        elif episode is None:
            self.set_episode(None, f"Record {record} keeps no steps: it is no episode.")
        else:
            self.set_episode(episode)
            self.go_to(step)

    # -- the episode ---------------------------------------------------------------------
    @property
    def last_step(self) -> int:
        return max(0, self.episode.length - 1) if self.episode is not None else 0

    def set_episode(self, episode: Episode | None, message: str = "") -> None:
        """Show ``episode`` from its first step (None: ``message`` instead)."""
        self.pause()
        self.episode = episode
        self._frames.set_episode(episode)
        for view in self._cameras:
            view.deleteLater()
        self._cameras = []
        if episode is None or episode.length == 0:
            if episode is not None:
                message = f"Record {episode.record} is an episode of no steps."
            self.message.setText(message or "Select a record that is an episode.")
            self._show_parts(False)
            if self._plots is not None:
                self._plots.set_episode(None)
            return
        cameras = episode.cameras
        columns = 2 if len(cameras) == 4 else min(3, max(1, len(cameras)))
        for n, name in enumerate(cameras):
            view = CameraView(name, self.grid)
            self._grid.addWidget(view, n // columns, n % columns)
            self._cameras.append(view)
        self.grid.setVisible(bool(cameras))
        self._plots_widget().set_episode(episode)
        self.slider.blockSignals(True)
        self.slider.setRange(0, self.last_step)
        self.slider.setValue(0)
        self.slider.blockSignals(False)
        self._show_parts(True)
        self.step, self.shown_step = -1, None
        self.go_to(0)

    def go_to(self, step: int) -> None:
        """Show ``step`` (kept within the episode)."""
        episode = self.episode
        if episode is None:
            return
        step = min(max(step, 0), self.last_step)
        if step == self.step:
            return
        self.step = step
        if self.slider.value() != step:
            self.slider.blockSignals(True)
            self.slider.setValue(step)
            self.slider.blockSignals(False)
        self.position.setText(f"step {step + 1:,} of {episode.length:,}")
        self.instruction.setText(_instruction(episode, step))
        self.flags.setText(_flags(episode, step))
        if self._plots is not None:
            self._plots.set_step(step)
        self._frames.want(range(step, step + AHEAD))
        self._show_frames(step)

    def _show_frames(self, step: int) -> None:
        frames = self._frames.frames(step)
        if frames is None:
            return  # on their way: ``_frame_ready`` shows them
        for view, frame in zip(self._cameras, frames, strict=False):
            view.show_frame(frame)
        self.shown_step = step

    def _frame_ready(self, step: int) -> None:
        if step == self.step:
            self._show_frames(step)

    # -- playing -------------------------------------------------------------------------
    @property
    def playing(self) -> bool:
        return self.timer.isActive()

    @property
    def steps_per_second(self) -> int:
        return int(self.speed.currentData())

    def toggle_play(self) -> None:
        if self.playing:
            self.pause()
        else:
            self.play()

    def play(self) -> None:
        """Play from the step shown (from the first when at the last)."""
        if self.episode is None:
            return
        if self.step >= self.last_step:
            self.go_to(0)
        self._clock = (time.monotonic(), self.step)
        self.play_button.setText("⏸")
        self.timer.start()

    def pause(self) -> None:
        self.timer.stop()
        self._clock = None
        self.play_button.setText("▶")

    def _speed_changed(self) -> None:
        self.settings.setValue(SPEED_SETTING, self.steps_per_second)
        if self.playing:
            self._clock = (time.monotonic(), self.step)

    def _tick(self) -> None:
        """The step the clock says is due; a step whose pictures are not decoded yet is
        passed over for the latest one that is (never behind the clock)."""
        if self._clock is None or self.episode is None:
            return
        began, start = self._clock
        due = start + int((time.monotonic() - began) * self.steps_per_second)
        if due >= self.last_step:
            self.go_to(self.last_step)
            self.pause()
            return
        self._frames.want(range(due, due + AHEAD))
        if due > self.step:
            ready = [s for s in range(due, self.step, -1) if self._frames.frames(s) is not None]
            self.go_to(ready[0] if ready else due)


def _instruction(episode: Episode, step: int) -> str:
    text = episode.instruction(step)
    if text is None:
        return ""
    return f"“{text}”" if text else "(no instruction)"


def _flags(episode: Episode, step: int) -> str:
    said = []
    for name in FLAGS:
        flags = episode.flag(name)
        if flags is not None and step < len(flags) and flags[step]:
            said.append(name)
    reward = episode.reward(step)
    if reward is not None:
        said.append(f"reward {reward:g}")
    return ", ".join(said) or plural(episode.length, "step")
