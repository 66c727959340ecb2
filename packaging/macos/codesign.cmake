# Run by CPack (CPACK_PRE_BUILD_SCRIPTS) after the bundle is staged and before
# the disk image is made. Signs Loopscope.app with the hardened runtime when
# LOOPSCOPE_CODESIGN_IDENTITY names a Developer ID in the keychain (the
# release workflow imports it from its secrets); does nothing otherwise.
if(NOT DEFINED ENV{LOOPSCOPE_CODESIGN_IDENTITY} OR "$ENV{LOOPSCOPE_CODESIGN_IDENTITY}" STREQUAL "")
    message(STATUS "codesign: LOOPSCOPE_CODESIGN_IDENTITY is not set, the app stays unsigned")
    return()
endif()
# The staging directory (CPACK_TEMPORARY_INSTALL_DIRECTORY is the same in
# CMake 3.25, and dropped later).
file(GLOB bundles LIST_DIRECTORIES true "${CPACK_TEMPORARY_DIRECTORY}/*.app")
list(FILTER bundles INCLUDE REGEX "\\.app$")
foreach(bundle IN LISTS bundles)
    message(STATUS "codesign: signing ${bundle}")
    execute_process(
        COMMAND codesign --force --deep --timestamp --options runtime
                --sign "$ENV{LOOPSCOPE_CODESIGN_IDENTITY}" "${bundle}"
        COMMAND_ERROR_IS_FATAL ANY)
    execute_process(COMMAND codesign --verify --deep --strict --verbose=2 "${bundle}"
        COMMAND_ERROR_IS_FATAL ANY)
endforeach()
