; Inno Setup 6 script for Rabbithole on Windows (x64).
;
; NOT BUILT OR TESTED: written and reviewed on Linux, where neither PyInstaller's Windows build nor
; Inno Setup runs. See packaging/README.md for what to check on the first Windows build.
;
; Input: the PyInstaller one-folder build made on Windows with RABBITHOLE_CONSOLE_EXE=1 (the default
; there), i.e. dist\rabbithole\ holding rabbithole.exe (the window), rabbithole-console.exe (the
; command line) and _internal\. packaging\windows\build_windows.ps1 makes it and then runs:
;
;   ISCC.exe /DAppVersion=0.1.0 /DDistDir=C:\path\to\dist\rabbithole /OC:\path\to\dist packaging\windows\rabbithole.iss
;
; Upgrades: the AppId stays the same forever, so a newer installer replaces the program in place
; (after closing a running Rabbithole through the Restart Manager). The program folder's _internal\
; is emptied first, so no library of the old version stays behind. Settings, databases, caches and
; logs live in the user's profile (%LOCALAPPDATA%\Rabbithole, via platformdirs), never in the program
; folder: neither an upgrade nor uninstalling touches them.

#ifndef AppVersion
  #define AppVersion "0.1.0"
#endif
#ifndef DistDir
  #define DistDir "..\..\dist\rabbithole"
#endif

[Setup]
; Never change the AppId: it is how Windows recognises an installed Rabbithole to upgrade.
AppId={{6D3B1E4A-8C2F-4F7B-9A51-2E7C0D94B3A8}
AppName=Rabbithole
AppVersion={#AppVersion}
AppVerName=Rabbithole {#AppVersion}
AppPublisher=Rabbithole
VersionInfoVersion={#AppVersion}
DefaultDirName={autopf}\Rabbithole
DefaultGroupName=Rabbithole
DisableProgramGroupPage=yes
; Installs for the current user without administrator rights; the dialog offers all users instead.
PrivilegesRequired=lowest
PrivilegesRequiredOverridesAllowed=dialog
ArchitecturesAllowed=x64compatible
ArchitecturesInstallIn64BitMode=x64compatible
MinVersion=10.0
OutputBaseFilename=rabbithole-{#AppVersion}-windows-x64-setup
SetupIconFile=rabbithole.ico
UninstallDisplayIcon={app}\rabbithole.exe
UninstallDisplayName=Rabbithole
Compression=lzma2/max
SolidCompression=yes
WizardStyle=modern
CloseApplications=yes
RestartApplications=no

[Languages]
Name: "en"; MessagesFile: "compiler:Default.isl"
Name: "de"; MessagesFile: "compiler:Languages\German.isl"

[Tasks]
Name: "desktopicon"; Description: "{cm:CreateDesktopIcon}"; GroupDescription: "{cm:AdditionalIcons}"; Flags: unchecked

[InstallDelete]
; The previous version's libraries: a one-folder build must not mix two versions.
Type: filesandordirs; Name: "{app}\_internal"

[Files]
Source: "{#DistDir}\rabbithole.exe"; DestDir: "{app}"; Flags: ignoreversion
Source: "{#DistDir}\rabbithole-console.exe"; DestDir: "{app}"; Flags: ignoreversion
Source: "{#DistDir}\_internal\*"; DestDir: "{app}\_internal"; Flags: ignoreversion recursesubdirs createallsubdirs

[Icons]
Name: "{autoprograms}\Rabbithole"; Filename: "{app}\rabbithole.exe"; Comment: "Offline research assistant"
Name: "{autodesktop}\Rabbithole"; Filename: "{app}\rabbithole.exe"; Tasks: desktopicon

[Run]
Filename: "{app}\rabbithole.exe"; Description: "{cm:LaunchProgram,Rabbithole}"; Flags: nowait postinstall skipifsilent

