# Run by GTKWave itself (gtkwave -S gtkwave_report.tcl FILE.vcd FILE.vcd.gtkw,
# tests/cli/gtkwave_test.cpp): reports what the window shows once the save
# file is loaded, one fact per line, then quits.
#   WINDOW <first visible time> <last visible time>
#   MAXTIME <last time of the dump>
#   TRACE <row> <flags> <name>     every row of the signal pane (groups too; an
#                                  aliased signal shows its alias)
#   SIGNAL <name>                  the displayed signals, in order
#   CHANGES <i> <count> <max>      value changes after time 0 of the i-th signal of
#                                  $GTKWAVE_CHANGES and its largest value
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
    set maxtime [gtkwave::getMaxTime]
    set i 0
    foreach s $env(GTKWAVE_CHANGES) {
        # Changes after time 0 up to the end of the dump (GTKWave appends
        # end markers beyond it), and the largest decimal value.
        set count 0
        set max 0
        foreach {t v} [gtkwave::signalChangeList $s -max 1000000] {
            if {$t > $maxtime} { continue }
            if {$t > 0} { incr count }
            if {[string is integer -strict $v] && $v > $max} { set max $v }
        }
        puts "CHANGES $i $count $max"
        incr i
    }
}
gtkwave::/File/Quit
