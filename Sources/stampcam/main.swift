import Foundation
import StampSystem

// First of all, before anything opens a file: a closed standard stream must not lend its number to one.
StandardStream.holdClosedDescriptors()
// A closed pipe (stampcam ... | head) makes writes fail, and the exit status say so, instead of killing the process
// mid-batch.
systemSetSignalIgnored(SIGPIPE, true)
systemExit(CLI.main(Array(CommandLine.arguments.dropFirst())))
