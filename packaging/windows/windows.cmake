# The Windows installer: CPack NSIS around the executable, the Qt libraries
# and plugins windeployqt picks, QtKeychain and muparser, and the MSVC
# runtime. Included by ../CMakeLists.txt before include(CPack); see README.md.
# Untested here: written from the CMake, CPack NSIS and Qt deployment docs.

# The executable's own icon (Explorer, task bar, the installer's shortcut).
target_sources(loopscope PRIVATE ${CMAKE_CURRENT_SOURCE_DIR}/windows/loopscope.rc)

# windeployqt, through Qt's deployment script, run at install time on the
# installed executable: Qt's DLLs and the plugins it loads (platforms/qwindows,
# styles, imageformats, tls).
qt_generate_deploy_app_script(TARGET loopscope
    FILENAME_VARIABLE loopscope_deploy_script
    NO_UNSUPPORTED_PLATFORM_ERROR)
install(SCRIPT "${loopscope_deploy_script}")
# windeployqt knows Qt only: the other DLLs the executable links come from
# their imported targets (vcpkg's x64-windows triplet builds them shared).
foreach(dependency Qt6Keychain::Qt6Keychain muparser::muparser)
    get_target_property(type ${dependency} TYPE)
    if(type STREQUAL "SHARED_LIBRARY")
        install(IMPORTED_RUNTIME_ARTIFACTS ${dependency} RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
    endif()
endforeach()
set(CMAKE_INSTALL_SYSTEM_RUNTIME_DESTINATION ${CMAKE_INSTALL_BINDIR})
include(InstallRequiredSystemLibraries)

install(DIRECTORY "${PROJECT_SOURCE_DIR}/resources/examples/"
    DESTINATION examples
    FILES_MATCHING PATTERN "*.loopscope.json")

set(CPACK_GENERATOR NSIS)
set(CPACK_PACKAGE_FILE_NAME "Loopscope-${PROJECT_VERSION}-win64")
set(CPACK_PACKAGE_EXECUTABLES "loopscope;Loopscope")
set(CPACK_NSIS_DISPLAY_NAME "Loopscope")
set(CPACK_NSIS_PACKAGE_NAME "Loopscope")
set(CPACK_NSIS_MUI_ICON "${CMAKE_CURRENT_SOURCE_DIR}/windows/loopscope.ico")
set(CPACK_NSIS_MUI_UNIICON "${CMAKE_CURRENT_SOURCE_DIR}/windows/loopscope.ico")
set(CPACK_NSIS_INSTALLED_ICON_NAME "bin\\\\loopscope.exe")
set(CPACK_NSIS_URL_INFO_ABOUT "${LOOPSCOPE_HOMEPAGE}")
set(CPACK_NSIS_ENABLE_UNINSTALL_BEFORE_INSTALL ON)
set(CPACK_NSIS_MODIFY_PATH OFF)
# Windows associates by the last extension only, and taking over every .json
# file would be rude: Loopscope registers a ProgID and offers itself in
# "Open with" for .json, and removes both on uninstall.
set(CPACK_NSIS_EXTRA_INSTALL_COMMANDS "
  WriteRegStr HKLM 'Software\\\\Classes\\\\io.github.loopscope.Session' '' 'Loopscope session'
  WriteRegStr HKLM 'Software\\\\Classes\\\\io.github.loopscope.Session\\\\DefaultIcon' '' '$INSTDIR\\\\bin\\\\loopscope.exe,0'
  WriteRegStr HKLM 'Software\\\\Classes\\\\io.github.loopscope.Session\\\\shell\\\\open\\\\command' '' '\\\"$INSTDIR\\\\bin\\\\loopscope.exe\\\" \\\"%1\\\"'
  WriteRegStr HKLM 'Software\\\\Classes\\\\.json\\\\OpenWithProgids' 'io.github.loopscope.Session' ''
  System::Call 'shell32::SHChangeNotify(i 0x08000000, i 0, p 0, p 0)'
")
set(CPACK_NSIS_EXTRA_UNINSTALL_COMMANDS "
  DeleteRegValue HKLM 'Software\\\\Classes\\\\.json\\\\OpenWithProgids' 'io.github.loopscope.Session'
  DeleteRegKey HKLM 'Software\\\\Classes\\\\io.github.loopscope.Session'
  System::Call 'shell32::SHChangeNotify(i 0x08000000, i 0, p 0, p 0)'
")
