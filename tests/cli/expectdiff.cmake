# Runs `loopscope diff A B` and passes when it exits 1 ("different") with the
# summary on its first line: a plain exit-code check cannot tell 1 from a crash.
#   cmake -DCOMMAND=<loopscope> -DA=<session> -DB=<session> -P expectdiff.cmake
execute_process(COMMAND ${COMMAND} diff ${A} ${B} RESULT_VARIABLE code OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT code EQUAL 1)
    message(FATAL_ERROR "loopscope diff exited with ${code}, not 1:\n${out}${err}")
endif()
if(NOT out MATCHES "^the questions differ\n")
    message(FATAL_ERROR "unexpected summary:\n${out}")
endif()
message(STATUS "${out}")
