# Build Rabbithole for Windows: the PyInstaller one-folder program and the Inno Setup installer.
#
# NOT BUILT OR TESTED: written and reviewed on Linux. See packaging/README.md.
#
#   powershell -ExecutionPolicy Bypass -File packaging\windows\build_windows.ps1 [-Out dist] [-Iscc path\to\ISCC.exe]
#
# Needs: Windows 10/11 x64, Python 3.12 with a .venv made in the checkout
# (py -3.12 -m venv .venv; .venv\Scripts\pip install -e ".[packaging]"), and Inno Setup 6.3 or later.
param(
    [string]$Out = "",
    [string]$Iscc = "${env:ProgramFiles(x86)}\Inno Setup 6\ISCC.exe"
)
$ErrorActionPreference = "Stop"
$Root = (Resolve-Path "$PSScriptRoot\..\..").Path
if (-not $Out) { $Out = Join-Path $Root "dist" }
$Py = Join-Path $Root ".venv\Scripts\python.exe"
Set-Location $Root

$Version = (& $Py -c "from desktop import __version__; print(__version__)").Trim()
$env:RABBITHOLE_CONSOLE_EXE = "1"   # rabbithole-console.exe: the command line (rabbithole.exe has no console)
& $Py -m PyInstaller --noconfirm --clean --distpath $Out --workpath (Join-Path $Root "build") packaging\rabbithole.spec
if ($LASTEXITCODE -ne 0) { throw "PyInstaller failed" }

# A first start on a fresh data folder: the prebuilt Sample database must be there without indexing.
$Cli = Join-Path $Out "rabbithole\rabbithole-console.exe"
& $Cli --version
if ($LASTEXITCODE -ne 0) { throw "rabbithole-console --version failed" }
$Data = Join-Path $env:TEMP ("rabbithole-smoke-" + [guid]::NewGuid())
$Started = Get-Date
$Docs = & $Cli kb list --db Sample --json --data-dir $Data | ConvertFrom-Json
if ($LASTEXITCODE -ne 0 -or $Docs.Count -ne 5) { throw "the Sample database is not usable on a first start" }
Write-Host ("Sample database usable {0:N1} s after the first start" -f ((Get-Date) - $Started).TotalSeconds)
& $Cli doctor --data-dir $Data   # reports that no LLM is running; must not crash
Remove-Item -Recurse -Force $Data

& $Iscc "/DAppVersion=$Version" "/DDistDir=$(Join-Path $Out 'rabbithole')" "/O$Out" (Join-Path $PSScriptRoot "rabbithole.iss")
if ($LASTEXITCODE -ne 0) { throw "Inno Setup failed" }
Get-ChildItem $Out -Filter "rabbithole-$Version-windows-x64-setup.exe"
