# cmake -DTOOL=PATH -DNAME=NAME -DVERSION=V -DOUT=FILE -P man_page.cmake:
# NAME's man page (roff, section 1) from what the program prints for
# --help, and for `sysnode` from each command's --help, so the page says
# what the program says.
execute_process(COMMAND ${TOOL} --help OUTPUT_VARIABLE help RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "${TOOL} --help exited ${rc}")
endif()
set(body "${help}")
if(NAME STREQUAL "sysnode")
  foreach(cmd run flash pack header dump)
    execute_process(COMMAND ${TOOL} ${cmd} --help OUTPUT_VARIABLE cmd_help RESULT_VARIABLE rc)
    if(NOT rc EQUAL 0)
      message(FATAL_ERROR "${TOOL} ${cmd} --help exited ${rc}")
    endif()
    string(APPEND body "\n.fi\n.SH \"SYSNODE ${cmd}\"\n.nf\n${cmd_help}")
  endforeach()
endif()
# roff: a backslash is written \e, a line starting with . or ' is protected
string(REPLACE "\\" "\\e" body "${body}")
string(REGEX REPLACE "\n([.'])" "\n\\\\&\\1" body "${body}")
string(TOUPPER "${NAME}" upper)
file(WRITE ${OUT} ".TH ${upper} 1 \"\" \"${NAME} ${VERSION}\" \"SysNode runner\"\n"
                  ".SH NAME\n${NAME} \\- SysNode runner tool (KohakuTPU SysNode firmware and simulator)\n"
                  ".SH SYNOPSIS AND OPTIONS\n.nf\n${body}\n.fi\n"
                  ".SH SEE ALSO\nThe project's docs/user-guide.md: every command, its options and outputs.\n")
