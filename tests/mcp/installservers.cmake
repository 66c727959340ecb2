# Installs the pinned MCP reference servers for the tests: npm ci from the
# committed package-lock.json into TARGET_DIR. Run by the mcp_servers_install test.
if(NOT NPM)
    message(FATAL_ERROR "npm was not found: install Node.js and npm (the MCP tests run the npm reference servers)")
endif()
file(MAKE_DIRECTORY ${TARGET_DIR})
file(COPY ${SOURCE_DIR}/package.json ${SOURCE_DIR}/package-lock.json DESTINATION ${TARGET_DIR})
execute_process(COMMAND ${NPM} ci --no-audit --no-fund
    WORKING_DIRECTORY ${TARGET_DIR}
    RESULT_VARIABLE result)
if(NOT result EQUAL 0)
    message(FATAL_ERROR "npm ci failed (${result}) in ${TARGET_DIR}: the MCP tests need the reference servers")
endif()
