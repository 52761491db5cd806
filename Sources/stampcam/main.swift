import Foundation

// First of all, before anything opens a file: a closed standard stream must not lend its number to one.
StandardStream.holdClosedDescriptors()
// A closed pipe (stampcam ... | head) makes writes fail, and the exit status say so, instead of killing the process
// mid-batch.
signal(SIGPIPE, SIG_IGN)
exit(CLI.main(Array(CommandLine.arguments.dropFirst())))
