import Dispatch
import Foundation
import Synchronization
import Testing

@testable import StampRender

@Suite("Write errors: every save names its own errno")
struct WriteErrorTests {
  /// On a full disk under `--jobs 2`, half the jobs read "unknown libvips error": libvips puts only
  /// "write error" in its one error buffer for the process, and the errno's words went to whichever job took the
  /// buffer first. Eight saves at once into /dev/full (every write fails with ENOSPC), in each format: every one
  /// names its own output and the cause.
  @Test(arguments: [OutputFormat.png, .jpeg, .webp, .tiff])
  func eachSaveOnAFullDiskSaysSo(_ format: OutputFormat) throws {
    var state: UInt32 = 12345
    let noise = (0..<(200 * 200 * 3)).map { _ -> UInt8 in
      state = state &* 1_103_515_245 &+ 12345
      return UInt8(truncatingIfNeeded: state >> 16)
    }
    let image = try Image.fromPixels(noise, width: 200, height: 200, bands: 3)
    let messages = Mutex([String](repeating: "", count: 8))
    DispatchQueue.concurrentPerform(iterations: 8) { i in
      let fd = open("/dev/full", O_WRONLY | O_CLOEXEC)
      defer { close(fd) }
      do {
        try ImageWriter.write(image, to: fd, display: "o\(i)", format: format, quality: 90, under: nil)
        messages.withLock { $0[i] = "written" }
      } catch {
        messages.withLock { $0[i] = "\(error)" }
      }
    }
    #expect(messages.withLock { $0 } == (0..<8).map { "o\($0): cannot write: no space left on device" })
  }
}
