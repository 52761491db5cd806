#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#elseif canImport(Android)
  import Android
#endif

// Every system call stampcam's file layer makes, each through the fault seam (`FaultPlan`): with no plan on the
// thread, a call costs one read of a thread-specific slot more than the system's own. Each returns what the system
// call returns and leaves errno as it left it; the retrying and the errors are `FileDescriptor`'s and the callers'.

/// errno set to `code`, and the failure value -1.
@inline(__always)
private func failing<Result: SignedInteger>(_ code: Int32) -> Result {
  errno = code
  return -1
}

/// `call`'s result, or -1 with errno set when the thread's plan makes `name` fail now.
@inline(__always)
private func seam<Result: SignedInteger>(_ name: SystemCall, _ call: () -> Result) -> Result {
  if let code = injectedFailure(name) { return failing(code) }
  return call()
}

/// open(2).
package func systemOpen(_ path: String, _ flags: Int32, _ mode: mode_t) -> Int32 {
  seam(.open) { open(path, flags, mode) }
}

/// openat(2).
package func systemOpenat(_ folder: Int32, _ name: String, _ flags: Int32, _ mode: mode_t) -> Int32 {
  seam(.openat) { openat(folder, name, flags, mode) }
}

/// close(2).
package func systemClose(_ fd: Int32) -> Int32 {
  if let code = injectedFailure(.close) {
    // The descriptor is closed all the same, as Linux closes it whatever close returns.
    _ = close(fd)
    return failing(code)
  }
  return close(fd)
}

/// read(2).
package func systemRead(_ fd: Int32, _ buffer: UnsafeMutableRawPointer?, _ count: Int) -> Int {
  seam(.read) { read(fd, buffer, count) }
}

/// pread(2).
package func systemPread(_ fd: Int32, _ buffer: UnsafeMutableRawPointer?, _ count: Int, _ offset: Int64) -> Int {
  seam(.pread) { pread(fd, buffer, count, off_t(offset)) }
}

/// write(2).
package func systemWrite(_ fd: Int32, _ buffer: UnsafeRawPointer?, _ count: Int) -> Int {
  seam(.write) { write(fd, buffer, count) }
}

/// fstat(2).
package func systemFstat(_ fd: Int32, _ info: inout stat) -> Int32 {
  seam(.fstat) { fstat(fd, &info) }
}

/// fstatat(2); `followingLinks` false is AT_SYMLINK_NOFOLLOW.
package func systemFstatat(
  _ folder: Int32, _ name: UnsafePointer<CChar>, _ info: inout stat, followingLinks: Bool
) -> Int32 {
  seam(.fstatat) { fstatat(folder, name, &info, followingLinks ? 0 : AT_SYMLINK_NOFOLLOW) }
}

/// stat(2).
package func systemStat(_ path: String, _ info: inout stat) -> Int32 {
  seam(.stat) { stat(path, &info) }
}

/// lstat(2).
package func systemLstat(_ path: String, _ info: inout stat) -> Int32 {
  seam(.lstat) { lstat(path, &info) }
}

/// mkdir(2).
package func systemMkdir(_ path: String, _ mode: mode_t) -> Int32 {
  seam(.mkdir) { mkdir(path, mode) }
}

/// mkdirat(2).
package func systemMkdirat(_ folder: Int32, _ name: String, _ mode: mode_t) -> Int32 {
  seam(.mkdirat) { mkdirat(folder, name, mode) }
}

/// renameat(2).
package func systemRenameat(_ fromFolder: Int32, _ from: String, _ toFolder: Int32, _ to: String) -> Int32 {
  seam(.renameat) { renameat(fromFolder, from, toFolder, to) }
}

/// unlinkat(2) of a file (no AT_REMOVEDIR).
package func systemUnlinkat(_ folder: Int32, _ name: String) -> Int32 {
  seam(.unlinkat) { unlinkat(folder, name, 0) }
}

/// unlink(2).
package func systemUnlink(_ path: String) -> Int32 {
  seam(.unlink) { unlink(path) }
}

/// fsync(2).
package func systemFsync(_ fd: Int32) -> Int32 {
  seam(.fsync) { fsync(fd) }
}

/// fchmod(2).
package func systemFchmod(_ fd: Int32, _ mode: mode_t) -> Int32 {
  seam(.fchmod) { fchmod(fd, mode) }
}

/// fchown(2); `uid_t.max` or `gid_t.max` (-1) leaves that one as it is.
package func systemFchown(_ fd: Int32, _ owner: uid_t, _ group: gid_t) -> Int32 {
  seam(.fchown) { fchown(fd, owner, group) }
}

/// fcntl(2) with no argument (F_GETFL, F_GETFD).
package func systemFcntl(_ fd: Int32, _ command: Int32) -> Int32 {
  seam(.fcntl) { fcntl(fd, command) }
}

/// fcntl(2) with an integer argument (F_SETFL, F_SETFD).
package func systemFcntl(_ fd: Int32, _ command: Int32, _ value: Int32) -> Int32 {
  seam(.fcntl) { fcntl(fd, command, value) }
}

/// flock(2).
package func systemFlock(_ fd: Int32, _ operation: Int32) -> Int32 {
  seam(.flock) { flock(fd, operation) }
}

/// dup(2).
package func systemDup(_ fd: Int32) -> Int32 {
  seam(.dup) { dup(fd) }
}

/// dup2(2).
package func systemDup2(_ fd: Int32, _ onto: Int32) -> Int32 {
  seam(.dup2) { dup2(fd, onto) }
}

/// lseek(2).
package func systemLseek(_ fd: Int32, _ offset: Int64, _ whence: Int32) -> Int64 {
  seam(.lseek) { Int64(lseek(fd, off_t(offset), whence)) }
}

/// pipe(2): the read end, then the write end.
package func systemPipe(_ ends: inout [Int32]) -> Int32 {
  seam(.pipe) { pipe(&ends) }
}

/// poll(2) of one descriptor, waiting without a deadline.
package func systemPoll(_ fd: Int32, events: Int16) -> Int32 {
  if let code = injectedFailure(.poll) { return failing(code) }
  var ready = pollfd(fd: fd, events: events, revents: 0)
  return poll(&ready, 1, -1)
}

/// mkstemp(3): makes and opens a file named from `template` (its `XXXXXX` replaced; NUL-terminated).
package func systemMkstemp(_ template: inout [CChar]) -> Int32 {
  seam(.mkstemp) { template.withUnsafeMutableBufferPointer { $0.baseAddress.map { mkstemp($0) } ?? -1 } }
}

/// access(2).
package func systemAccess(_ path: String, _ mode: Int32) -> Int32 {
  seam(.access) { access(path, mode) }
}

/// kill(2).
package func systemKill(_ process: pid_t, _ signal: Int32) -> Int32 {
  seam(.kill) { kill(process, signal) }
}

/// getpid(2), which cannot fail.
package func systemProcessID() -> pid_t {
  getpid()
}

/// realpath(3): the path with every symbolic link and `..` resolved; nil (errno set) when it cannot be.
package func systemRealpath(_ path: String) -> String? {
  if let code = injectedFailure(.realpath) {
    errno = code
    return nil
  }
  guard let resolved = realpath(path, nil) else { return nil }
  defer { free(resolved) }
  return String(cString: resolved)
}

/// readlink(2): the link's text, or nil (errno set) when `path` is no link or cannot be read.
package func systemReadlink(_ path: String) -> String? {
  if let code = injectedFailure(.readlink) {
    errno = code
    return nil
  }
  var target = [CChar](repeating: 0, count: 4096)
  let length = readlink(path, &target, target.count - 1)
  guard length >= 0 else { return nil }
  return String(decoding: target.prefix(length).map { UInt8(bitPattern: $0) }, as: UTF8.self)
}

/// gethostname(2): the host's name ("" if it cannot be read).
package func systemHostName() -> String {
  var host = [CChar](repeating: 0, count: 256)
  guard gethostname(&host, host.count - 1) == 0 else { return "" }
  return String(decoding: host.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
}

/// fdopendir(3), readdir(3) and closedir(3): calls `body` with each entry's name's bytes and its `d_type` (`.` and
/// `..` included), reading the open folder `owned`, which it closes whatever happens. Returns 0, or -1 with errno set
/// when the folder could not be listed to its end.
package func systemListFolder(_ owned: Int32, _ body: (UnsafeBufferPointer<UInt8>, UInt8) -> Void) -> Int32 {
  if let code = injectedFailure(.fdopendir) {
    _ = close(owned)
    return failing(code)
  }
  guard let stream = fdopendir(owned) else {
    let code = errno
    _ = close(owned)
    return failing(code)
  }
  defer { closedir(stream) }  // closes `owned`
  while true {
    if let code = injectedFailure(.readdir) { return failing(code) }
    let next = Errno.retryingInterrupts(
      {
        errno = 0
        return readdir(stream)
      }, failed: { $0 == nil && errno != 0 })
    guard let entry = next else { return errno == 0 ? 0 : -1 }
    let type = entry.pointee.d_type
    withUnsafeBytes(of: &entry.pointee.d_name) { raw in
      let bytes = raw.bindMemory(to: UInt8.self)
      body(UnsafeBufferPointer(rebasing: bytes[..<(bytes.firstIndex(of: 0) ?? bytes.count)]), type)
    }
  }
}

// The process's own calls (signals, the terminal, sleeping, exiting): no fault is injected into them.

/// signal(2): `number` ignored when `ignored`, else back to its default action.
package func systemSetSignalIgnored(_ number: Int32, _ ignored: Bool) {
  _ = signal(number, ignored ? SIG_IGN : SIG_DFL)
}

/// pthread_sigmask(3): blocks `numbers` on this thread (and on the threads it starts after), for `systemWaitForSignal`.
package func systemBlockSignals(_ numbers: [Int32]) -> sigset_t {
  var set = sigset_t()
  sigemptyset(&set)
  for number in numbers { sigaddset(&set, number) }
  pthread_sigmask(SIG_BLOCK, &set, nil)
  return set
}

/// pthread_sigmask(3): unblocks `numbers` on this thread, so that their default action applies to it again (a mask
/// the process inherited blocked them); the mask before, for `systemRestoreSignalMask`.
package func systemUnblockSignals(_ numbers: [Int32]) -> sigset_t {
  var set = sigset_t()
  sigemptyset(&set)
  for number in numbers { sigaddset(&set, number) }
  var before = sigset_t()
  pthread_sigmask(SIG_UNBLOCK, &set, &before)
  return before
}

/// pthread_sigmask(3): puts back the mask `systemUnblockSignals` returned.
package func systemRestoreSignalMask(_ mask: sigset_t) {
  var mask = mask
  pthread_sigmask(SIG_SETMASK, &mask, nil)
}

/// sigwait(3): waits for one of the blocked signals of `set`; its number.
package func systemWaitForSignal(_ set: sigset_t) -> Int32 {
  var set = set
  var received: Int32 = 0
  _ = sigwait(&set, &received)
  return received
}

/// time(2): seconds since 1970.
package func systemTime() -> time_t {
  time(nil)
}

/// isatty(3).
package func systemIsTerminal(_ fd: Int32) -> Bool {
  isatty(fd) != 0
}

/// usleep(3).
package func systemSleep(microseconds: UInt32) {
  _ = usleep(microseconds)
}

/// exit(3).
package func systemExit(_ status: Int32) -> Never {
  exit(status)
}
