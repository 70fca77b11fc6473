# Run by GTKWave itself (gtkwave -S gtkwave_report.tcl FILE.vcd FILE.vcd.gtkw,
# tests/cli/gtkwave_test.cpp): reports what the window shows once the save
# file is loaded, one fact per line, then quits.
#   WINDOW <first visible time> <last visible time>
#   MAXTIME <last time of the dump>
#   TRACE <row> <flags> <name>     every row of the signal pane (groups too; an
#                                  aliased signal shows its alias)
#   SIGNAL <name>                  the displayed signals, in order
#   CHANGES <name> <count> <max>   value changes of a signal and its largest value
puts "WINDOW [gtkwave::getWindowStartTime] [gtkwave::getWindowEndTime]"
puts "MAXTIME [gtkwave::getMaxTime]"
set rows [gtkwave::getTotalNumTraces]
for {set i 0} {$i < $rows} {incr i} {
    puts "TRACE $i [gtkwave::getTraceFlagsFromIndex $i] [gtkwave::getTraceNameFromIndex $i]"
}
foreach s [gtkwave::getDisplayedSignals] {
    puts "SIGNAL $s"
}
if {[info exists env(GTKWAVE_CHANGES)]} {
    foreach s $env(GTKWAVE_CHANGES) {
        set changes [gtkwave::signalChangeList $s -max 1000000]
        set count 0
        set max 0
        foreach {t v} $changes {
            incr count
            scan $v %x value
            if {[string is integer -strict $value] && $value > $max} { set max $value }
        }
        puts "CHANGES $s $count $max"
    }
}
gtkwave::/File/Quit
