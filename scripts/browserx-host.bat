@echo off
rem Started by the browser through native messaging on Windows; runs the host with the checkout's venv.
if defined BROWSERX_PYTHON (
  "%BROWSERX_PYTHON%" -m browserx.host %*
) else if exist "%~dp0..\.venv\Scripts\python.exe" (
  "%~dp0..\.venv\Scripts\python.exe" -m browserx.host %*
) else (
  python -m browserx.host %*
)
