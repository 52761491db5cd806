import Foundation

// A closed pipe (stampcam ... | head) makes writes fail instead of killing the process mid-batch.
signal(SIGPIPE, SIG_IGN)
exit(CLI.main(Array(CommandLine.arguments.dropFirst())))
