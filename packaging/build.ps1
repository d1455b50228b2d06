# Build the Windows bundle from a clean virtual environment.
#
#   powershell -ExecutionPolicy Bypass -File packaging\build.ps1 [-OneFile] [-Installer]
#
# Result: dist\tfr-viewer\tfr-viewer.exe (one folder) or dist\tfr-viewer.exe (-OneFile),
# then a size report. -Installer also runs Inno Setup's iscc on packaging\windows\tfr-viewer.iss.
param([switch]$OneFile, [switch]$Installer, [string]$Python = "py")
$ErrorActionPreference = "Stop"
$Root = Split-Path -Parent $PSScriptRoot
$Work = Join-Path $Root "build"
$Dist = Join-Path $Root "dist"
$Venv = Join-Path $Work "venv"

if (Test-Path $Venv) { Remove-Item -Recurse -Force $Venv }
& $Python -m venv $Venv
$Py = Join-Path $Venv "Scripts\python.exe"
& $Py -m pip install -q --upgrade pip
& $Py -m pip install -q $Root "pyinstaller>=6.10"
& $Py -c "import tensorflow" 2>$null
if ($LASTEXITCODE -eq 0) { throw "TensorFlow is installed in the build environment; refusing to bundle it" }

$Spec = Join-Path $Root "packaging\tfr-viewer.spec"
$Args = @("--noconfirm", "--clean", "--log-level", "WARN", "--distpath", $Dist,
          "--workpath", (Join-Path $Work "pyinstaller"), $Spec)
if ($OneFile) { $Args += @("--", "--onefile") }
& (Join-Path $Venv "Scripts\pyinstaller.exe") @Args
if ($LASTEXITCODE -ne 0) { throw "PyInstaller failed" }

& $Py (Join-Path $Root "packaging\size_report.py") $Dist

if ($Installer) {
  $Version = & $Py -c "import tfr_viewer; print(tfr_viewer.__version__)"
  iscc "/DAppVersion=$Version" (Join-Path $Root "packaging\windows\tfr-viewer.iss")
  if ($LASTEXITCODE -ne 0) { throw "Inno Setup failed" }
}
