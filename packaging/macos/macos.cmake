# The macOS disk image: Loopscope.app with the Qt frameworks and plugins
# macdeployqt adds, in a CPack DragNDrop .dmg. Included by ../CMakeLists.txt
# before include(CPack); see README.md. Untested here: written from the CMake,
# CPack DragNDrop and Qt deployment docs.

set_target_properties(loopscope PROPERTIES
    OUTPUT_NAME Loopscope
    MACOSX_BUNDLE_INFO_PLIST "${CMAKE_CURRENT_SOURCE_DIR}/macos/Info.plist.in"
    MACOSX_BUNDLE_GUI_IDENTIFIER "${LOOPSCOPE_APP_ID}"
    MACOSX_BUNDLE_BUNDLE_NAME "Loopscope"
    MACOSX_BUNDLE_BUNDLE_VERSION "${PROJECT_VERSION}"
    MACOSX_BUNDLE_SHORT_VERSION_STRING "${PROJECT_VERSION}"
    MACOSX_BUNDLE_ICON_FILE loopscope.icns
    MACOSX_BUNDLE_COPYRIGHT "The Loopscope developers")
set(icns "${CMAKE_CURRENT_SOURCE_DIR}/macos/loopscope.icns")
set_source_files_properties(${icns} PROPERTIES MACOSX_PACKAGE_LOCATION Resources)
target_sources(loopscope PRIVATE ${icns})

# macdeployqt, through Qt's deployment script, at install time: the Qt
# frameworks and plugins go into the bundle and the library paths are
# rewritten. QtKeychain and muparser (Homebrew or vcpkg dylibs) are copied too.
qt_generate_deploy_app_script(TARGET loopscope
    FILENAME_VARIABLE loopscope_deploy_script
    NO_UNSUPPORTED_PLATFORM_ERROR)
install(SCRIPT "${loopscope_deploy_script}")

set(CPACK_GENERATOR DragNDrop)
set(CPACK_PACKAGE_FILE_NAME "Loopscope-${PROJECT_VERSION}-macos")
set(CPACK_DMG_VOLUME_NAME "Loopscope")
set(CPACK_DMG_FORMAT UDZO)
# Signs the staged bundle before it goes into the image, when the release
# workflow provides an identity (LOOPSCOPE_CODESIGN_IDENTITY); otherwise the
# image holds an unsigned (ad-hoc signed) app.
set(CPACK_PRE_BUILD_SCRIPTS "${CMAKE_CURRENT_SOURCE_DIR}/macos/codesign.cmake")
