import Foundation
import StampTestFolders
import Testing

@testable import StampFiles

@Suite("Temporary files of dead runs")
struct TemporaryNameTests {
  /// Only files named as temporaries whose run is gone are removed: on this machine, a process that no longer
  /// exists; from another machine (its pids mean nothing here), a file untouched for over a day. A live process's
  /// temporary, a recent one from elsewhere, look-alikes and folders stay.
  @Test func onlyTheTemporariesOfRunsThatAreGoneAreRemoved() throws {
    let w = try TestFolder()
    defer { w.remove() }
    let here = TemporaryName.machine
    let elsewhere = here == "0000abcd" ? "0000abce" : "0000abcd"
    // pid_max on Linux is at most 4194304: pid 2147483000 belongs to no process; pid 1 always exists.
    let dead = ".a.png.stampcam-\(here)-2147483000-0badf00d.tmp"
    let alive = ".b.png.stampcam-\(here)-1-0badf00d.tmp"
    let recentElsewhere = ".c.png.stampcam-\(elsewhere)-2147483000-0badf00d.tmp"
    let oldElsewhere = ".d.png.stampcam-\(elsewhere)-2147483000-0badf00d.tmp"
    let lookalikes = [
      ".e.png.stampcam-\(here)-2147483000-NOTHEX00.tmp", "f.png.stampcam-\(here)-2147483000-0badf00d.tmp",
      ".g.png.stampcam-\(here)-2147483000-0badf00d.tmp.bak", ".h.png.stampcam-\(here)-+2147483000-0badf00d.tmp",
    ]
    for name in [dead, alive, recentElsewhere, oldElsewhere] + lookalikes { try w.write(name, "x") }
    let folderLike = ".i.png.stampcam-\(here)-2147483000-0badf00d.tmp"
    try FileManager.default.createDirectory(atPath: w.path(folderLike + "/x"), withIntermediateDirectories: true)
    let twoDaysAgo = Date(timeIntervalSinceNow: -2 * 86_400)
    try FileManager.default.setAttributes([.modificationDate: twoDaysAgo], ofItemAtPath: w.path(oldElsewhere))
    let removed = TemporaryFiles.removeStale(in: try Folder.open(path: w.url.path))
    #expect(removed.sorted() == [dead, oldElsewhere].sorted())
    #expect(w.files("").filter { !$0.hasPrefix(folderLike) } == ([alive, recentElsewhere] + lookalikes).sorted())
    #expect(FileManager.default.fileExists(atPath: w.path(folderLike + "/x")))
  }

  /// The names this process makes are recognised as its own, with its pid.
  @Test func namesAreRecognisedByTheirMaker() {
    let name = TemporaryName.make(for: "photo.jpg")
    #expect(name.hasPrefix(".photo.jpg.stampcam-") && name.hasSuffix(".tmp"))
    #expect(TemporaryName.owner(of: name) == TemporaryName.Owner(machine: TemporaryName.machine, pid: getpid()))
    #expect(!TemporaryName.isStale(name, modified: 0))
  }
}
