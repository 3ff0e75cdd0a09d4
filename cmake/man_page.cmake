# cmake -DTOOL=PATH -DNAME=NAME -DVERSION=V -DOUT=FILE -P man_page.cmake:
# NAME's man page (roff, section 1) from what the program prints for
# --help (the option table's text, common/options.c), and for `sysnode`
# from each command's --help too, so the page says what the program says:
# the usage as SYNOPSIS, what it does, and each option as a tagged
# paragraph.

# The roff of one line of text: a backslash is written \e, a hyphen \- (so
# an option pasted from the page is one), a line starting with . or ' is
# protected.
function(roff_line out line)
  string(REPLACE "\\" "\\e" line "${line}")
  string(REPLACE "-" "\\-" line "${line}")
  if(line MATCHES "^[.']")
    set(line "\\&${line}")
  endif()
  set(${out} "${line}" PARENT_SCOPE)
endfunction()

# The page section(s) of one --help text; `title` names the SYNOPSIS
# section (a command's own section for sysnode's commands).
function(help_roff out help title)
  # as a CMake list, one element a line: ';' and brackets would split or join lines
  string(REPLACE ";" "<semicolon>" help "${help}")
  string(REPLACE "[" "<lbracket>" help "${help}")
  string(REPLACE "]" "<rbracket>" help "${help}")
  string(REPLACE "\n" ";" lines "${help}")
  set(roff ".SH \"${title}\"\n.nf\n")
  set(part usage)
  foreach(line IN LISTS lines)
    if(part STREQUAL "usage" AND NOT line MATCHES "^(usage: |       )")
      set(part about)
      string(APPEND roff ".fi\n.PP\n")
    endif()
    if(line STREQUAL "Options:")
      set(part options)
      string(APPEND roff ".SS Options\n")
      continue()
    endif()
    if(part STREQUAL "options" AND line MATCHES "^  (-., |    )(--.*[^ ])  +(.*)$")
      set(head "${CMAKE_MATCH_1}${CMAKE_MATCH_2}")
      set(text "${CMAKE_MATCH_3}")
      string(STRIP "${head}" head)
      roff_line(head "${head}")
      roff_line(text "${text}")
      string(APPEND roff ".TP\n.B ${head}\n${text}\n")
    elseif(part STREQUAL "options" AND line MATCHES "^  (-., |    )(--.*)$")
      set(head "${CMAKE_MATCH_1}${CMAKE_MATCH_2}")
      string(STRIP "${head}" head)
      roff_line(head "${head}")
      string(APPEND roff ".TP\n.B ${head}\n")
    elseif(part STREQUAL "about" AND line MATCHES "^  ")
      roff_line(text "${line}")
      string(APPEND roff ".nf\n${text}\n.fi\n")
    else()
      string(STRIP "${line}" text)
      if(NOT text STREQUAL "")
        roff_line(text "${text}")
        string(APPEND roff "${text}\n")
      endif()
    endif()
  endforeach()
  string(REPLACE "<semicolon>" ";" roff "${roff}")
  string(REPLACE "<lbracket>" "[" roff "${roff}")
  string(REPLACE "<rbracket>" "]" roff "${roff}")
  set(${out} "${roff}" PARENT_SCOPE)
endfunction()

execute_process(COMMAND ${TOOL} --help OUTPUT_VARIABLE help RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "${TOOL} --help exited ${rc}")
endif()
help_roff(body "${help}" "SYNOPSIS")
if(NAME STREQUAL "sysnode")
  foreach(cmd run flash pack header dump)
    execute_process(COMMAND ${TOOL} ${cmd} --help OUTPUT_VARIABLE cmd_help RESULT_VARIABLE rc)
    if(NOT rc EQUAL 0)
      message(FATAL_ERROR "${TOOL} ${cmd} --help exited ${rc}")
    endif()
    string(TOUPPER "${cmd}" upper_cmd)
    help_roff(cmd_body "${cmd_help}" "SYSNODE ${upper_cmd}")
    string(APPEND body "${cmd_body}")
  endforeach()
endif()
roff_line(see_also "The project's docs/user-guide.md: every command, its options and outputs.")
string(TOUPPER "${NAME}" upper)
file(WRITE ${OUT} ".TH ${upper} 1 \"\" \"${NAME} ${VERSION}\" \"SysNode runner\"\n"
                  ".SH NAME\n${NAME} \\- SysNode runner tool (KohakuTPU SysNode firmware and simulator)\n"
                  "${body}"
                  ".SH \"SEE ALSO\"\n${see_also}\n")
