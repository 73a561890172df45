; NSIS installer for the Windows desktop bundle (per-machine, under Program Files).
; Build on Windows: packaging\windows\build.ps1 (runs PyInstaller, the bundle's --self-test, then makensis).
; Syntax check anywhere with NSIS (e.g. Debian's nsis): makensis -DDIST=<any folder> -DVERSION=0.0.0 splitchat.nsi

Unicode true
!ifndef VERSION
  !define VERSION "0.1.0"
!endif
!ifndef DIST
  !define DIST "..\..\build\dist\splitchat"
!endif
!ifndef OUTFILE
  !define OUTFILE "..\..\build\splitchat-${VERSION}-setup.exe"
!endif

!include "MUI2.nsh"

Name "splitchat ${VERSION}"
OutFile "${OUTFILE}"
InstallDir "$PROGRAMFILES64\splitchat"
InstallDirRegKey HKLM "Software\splitchat" "InstallDir"
RequestExecutionLevel admin
SetCompressor /SOLID lzma

!define MUI_ICON "..\assets\splitchat.ico"
!define MUI_UNICON "..\assets\splitchat.ico"
!insertmacro MUI_PAGE_WELCOME
!insertmacro MUI_PAGE_DIRECTORY
!insertmacro MUI_PAGE_INSTFILES
!insertmacro MUI_PAGE_FINISH
!insertmacro MUI_UNPAGE_CONFIRM
!insertmacro MUI_UNPAGE_INSTFILES
; The installer speaks the Windows display language where it has it (Spanish for any es-* one), else the
; first one here. The wizard's own words come from MUI2's language files; splitchat's are the LangStrings.
!insertmacro MUI_LANGUAGE "English"
!insertmacro MUI_LANGUAGE "Spanish"

; The Start menu shortcut's description (its tooltip), as the Linux desktop entry's Comment says it.
LangString SHORTCUT_DESCRIPTION ${LANG_ENGLISH} "Chat with a language model split between this computer and a GPU server"
LangString SHORTCUT_DESCRIPTION ${LANG_SPANISH} "Converse con un modelo de lenguaje dividido entre este equipo y un servidor GPU"

Section "splitchat" SecMain
  SectionIn RO
  SetOutPath "$INSTDIR"
  File /r "${DIST}\*.*"
  WriteRegStr HKLM "Software\splitchat" "InstallDir" "$INSTDIR"
  CreateDirectory "$SMPROGRAMS\splitchat"
  CreateShortcut "$SMPROGRAMS\splitchat\splitchat.lnk" "$INSTDIR\splitchat.exe" "" "$INSTDIR\splitchat.exe" 0 \
    SW_SHOWNORMAL "" "$(SHORTCUT_DESCRIPTION)"
  WriteUninstaller "$INSTDIR\uninstall.exe"
  WriteRegStr HKLM "Software\Microsoft\Windows\CurrentVersion\Uninstall\splitchat" "DisplayName" "splitchat"
  WriteRegStr HKLM "Software\Microsoft\Windows\CurrentVersion\Uninstall\splitchat" "DisplayVersion" "${VERSION}"
  WriteRegStr HKLM "Software\Microsoft\Windows\CurrentVersion\Uninstall\splitchat" "Publisher" "splitchat"
  WriteRegStr HKLM "Software\Microsoft\Windows\CurrentVersion\Uninstall\splitchat" "UninstallString" '"$INSTDIR\uninstall.exe"'
  WriteRegStr HKLM "Software\Microsoft\Windows\CurrentVersion\Uninstall\splitchat" "DisplayIcon" "$INSTDIR\splitchat.exe"
  WriteRegDWORD HKLM "Software\Microsoft\Windows\CurrentVersion\Uninstall\splitchat" "NoModify" 1
  WriteRegDWORD HKLM "Software\Microsoft\Windows\CurrentVersion\Uninstall\splitchat" "NoRepair" 1
SectionEnd

; Uninstall removes the program only: conversations and settings in the user's AppData stay, and the
; admin policy in C:\ProgramData\splitchat stays with the organisation that wrote it.
Section "Uninstall"
  RMDir /r "$INSTDIR"
  Delete "$SMPROGRAMS\splitchat\splitchat.lnk"
  RMDir "$SMPROGRAMS\splitchat"
  DeleteRegKey HKLM "Software\Microsoft\Windows\CurrentVersion\Uninstall\splitchat"
  DeleteRegKey HKLM "Software\splitchat"
SectionEnd
