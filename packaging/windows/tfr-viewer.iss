; Inno Setup script: installs the one-folder bundle built by packaging\build.ps1, adds a
; Start-menu entry and opens TFRecord files with tfr-viewer on double-click.
;
;   iscc /DAppVersion=0.1.0 packaging\windows\tfr-viewer.iss
;
; Run from the repository root after build.ps1; the installer lands in dist\installer.

#ifndef AppVersion
  #define AppVersion "0.1.0"
#endif
#define AppName "tfr-viewer"
#define ProgId "tfr-viewer.tfrecord"

[Setup]
AppId={{6B7E2B0C-5C55-4E0B-9B8E-2F1D7A3C9E41}
AppName={#AppName}
AppVersion={#AppVersion}
AppPublisher=tfr-viewer
DefaultDirName={autopf}\{#AppName}
DefaultGroupName={#AppName}
DisableProgramGroupPage=yes
PrivilegesRequiredOverridesAllowed=dialog
ChangesAssociations=yes
OutputDir=..\..\dist\installer
OutputBaseFilename=tfr-viewer-{#AppVersion}-setup
SetupIconFile=..\..\resources\icons\tfr-viewer.ico
UninstallDisplayIcon={app}\tfr-viewer.exe
Compression=lzma2
SolidCompression=yes
ArchitecturesAllowed=x64compatible
ArchitecturesInstallIn64BitMode=x64compatible

[Files]
Source: "..\..\dist\tfr-viewer\*"; DestDir: "{app}"; Flags: ignoreversion recursesubdirs createallsubdirs

[Icons]
Name: "{group}\{#AppName}"; Filename: "{app}\tfr-viewer.exe"
Name: "{group}\Uninstall {#AppName}"; Filename: "{uninstallexe}"

[Registry]
; One ProgId for every extension; the open command passes the file to the running app
; (single instance) or starts it.
Root: HKA; Subkey: "Software\Classes\{#ProgId}"; ValueType: string; ValueData: "TensorFlow TFRecord file"; Flags: uninsdeletekey
Root: HKA; Subkey: "Software\Classes\{#ProgId}\DefaultIcon"; ValueType: string; ValueData: "{app}\tfr-viewer.exe,0"
Root: HKA; Subkey: "Software\Classes\{#ProgId}\shell\open\command"; ValueType: string; ValueData: """{app}\tfr-viewer.exe"" ""%1"""
Root: HKA; Subkey: "Software\Classes\.tfrecord\OpenWithProgids"; ValueType: string; ValueName: "{#ProgId}"; ValueData: ""; Flags: uninsdeletevalue
Root: HKA; Subkey: "Software\Classes\.tfrecords\OpenWithProgids"; ValueType: string; ValueName: "{#ProgId}"; ValueData: ""; Flags: uninsdeletevalue
Root: HKA; Subkey: "Software\Classes\.tfrec\OpenWithProgids"; ValueType: string; ValueName: "{#ProgId}"; ValueData: ""; Flags: uninsdeletevalue
; Windows sees only the last suffix of name.tfrecord.gz; .gz is not claimed for all files.
Root: HKA; Subkey: "Software\Classes\.tfrecord\DefaultIcon"; ValueType: string; ValueData: "{app}\tfr-viewer.exe,0"; Flags: uninsdeletekey
Root: HKA; Subkey: "Software\Classes\Applications\tfr-viewer.exe\SupportedTypes"; ValueType: string; ValueName: ".tfrecord"; ValueData: ""; Flags: uninsdeletekey
Root: HKA; Subkey: "Software\Classes\Applications\tfr-viewer.exe\SupportedTypes"; ValueType: string; ValueName: ".tfrecords"; ValueData: ""
Root: HKA; Subkey: "Software\Classes\Applications\tfr-viewer.exe\SupportedTypes"; ValueType: string; ValueName: ".tfrec"; ValueData: ""
Root: HKA; Subkey: "Software\Classes\Applications\tfr-viewer.exe\SupportedTypes"; ValueType: string; ValueName: ".gz"; ValueData: ""
Root: HKA; Subkey: "Software\Classes\Applications\tfr-viewer.exe\shell\open\command"; ValueType: string; ValueData: """{app}\tfr-viewer.exe"" ""%1"""

[Run]
Filename: "{app}\tfr-viewer.exe"; Description: "Start {#AppName}"; Flags: nowait postinstall skipifsilent
