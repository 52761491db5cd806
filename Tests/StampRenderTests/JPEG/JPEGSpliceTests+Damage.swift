import Foundation
import StampTestShim
import Testing

/// libjpeg's count of warnings reading `path` to its end, or nil when it refuses the file outright.
func libjpegWarnings(_ path: String) -> Int? {
  var difference = sjo_difference()
  var message = [CChar](repeating: 0, count: 256)
  guard sjo_compare(path, path, nil, 0, &difference, &message, message.count) == 0 else { return nil }
  return difference.warnings.0
}

/// Where a JPEG's entropy-coded data lies: after its SOS segment, up to its last EOI marker; read from the bytes.
func entropyRange(_ bytes: [UInt8]) -> Range<Int>? {
  var at = 2
  while at + 4 <= bytes.count, bytes[at] == 0xFF {
    let length = Int(bytes[at + 2]) << 8 | Int(bytes[at + 3])
    if bytes[at + 1] == 0xDA {
      let start = at + 2 + length
      guard let end = (start..<bytes.count - 1).last(where: { bytes[$0] == 0xFF && bytes[$0 + 1] == 0xD9 }) else {
        return nil
      }
      return start..<end
    }
    at += 2 + length
  }
  return nil
}

extension JPEGSpliceTests {
  /// Copies of a clean photo whose entropy-coded data is damaged: bits flipped, the data cut short, a stuffed zero
  /// removed (its 0xFF then reads as a marker's), a marker put in. The index refuses (2, damaged, with a message; or
  /// 1) every copy libjpeg warns about, a cut always; its reading may be stricter than libjpeg-turbo's and refuse
  /// more. When it takes a copy, libjpeg reads that copy cleanly and the spliced edit of it is the whole-photo edit.
  @Test(
    "Damaged data is refused, never spliced into a wrong output",
    arguments: SplicePhoto.samplings.filter { ["4:4:4", "4:2:0", "4:1:1", "grey"].contains($0.name) })
  func damagedDataIsRefused(_ sampling: SamplingCase) throws {
    let fixtures = try Fixtures()
    defer { fixtures.remove() }
    let photo = SplicePhoto(sampling: sampling, width: 157, height: 93)
    let clean = [UInt8](try Data(contentsOf: URL(fileURLWithPath: try photo.write(fixtures))))
    let data = try #require(entropyRange(clean))
    var copies: [(String, [UInt8])] = []
    var seed: UInt64 = 0x2545_F491_4F6C_DD1D
    func next(_ bound: Int) -> Int {
      seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      return Int(truncatingIfNeeded: seed >> 33) % bound
    }
    for _ in 0..<40 {
      let at = data.lowerBound + next(data.count)
      var copy = clean
      copy[at] ^= UInt8(1 << next(8))
      copies.append(("bit flipped at byte \(at)", copy))
    }
    for cut in [data.lowerBound + 1, data.lowerBound + data.count / 2, data.upperBound - 1, data.upperBound] {
      copies.append(("cut at byte \(cut)", Array(clean.prefix(cut))))
    }
    let stuffed = data.dropLast().filter { clean[$0] == 0xFF && clean[$0 + 1] == 0x00 }
    try #require(stuffed.count >= 5, "a textured photo at quality 90 has stuffed bytes")
    for k in 0..<5 {
      let at = stuffed[k * stuffed.count / 5]
      copies.append(("stuffed zero removed at byte \(at + 1)", Array(clean[...at]) + Array(clean[(at + 2)...])))
    }
    for _ in 0..<3 {
      var at = data.lowerBound + 1 + next(data.count - 1)
      while clean[at - 1] == 0xFF { at += 1 }
      copies.append(("marker put at byte \(at)", Array(clean[..<at]) + [0xFF, 0xD3] + Array(clean[at...])))
    }

    let state = try SpliceState()
    let rects = [MCURect(photo.mcusWide / 2, photo.mcusHigh / 2, 2, 1)]
    let path = fixtures.path("damaged.jpg")
    for (what, copy) in copies {
      try Data(copy).write(to: URL(fileURLWithPath: path))
      let run = try BothWays(fixtures, state.pointer, photo: path, rects: rects, edit: spliceEdits[0].1)
      let warned = libjpegWarnings(path).map { $0 > 0 } ?? true
      let index = run.outcome.index
      #expect(index == 0 || index == 1 || index == 2, "\(what): \(run.outcome.spliceText)")
      if index == 2 {
        #expect(!cText(run.outcome.splice_message).isEmpty, "\(what): damage reported without a message")
      }
      // Every cut, removed stuffing and marker put in makes libjpeg warn; most flipped bits do not (Huffman codes
      // fall back into step), and then the splice must agree with libjpeg's reading of the copy.
      if warned || !what.hasPrefix("bit flipped") {
        #expect(index == 1 || index == 2, "\(what): libjpeg warns \(warned), the index took it")
      }
      if index == 0 {
        // Only a copy libjpeg reads cleanly, and then the splice must agree with libjpeg's reading of it.
        try run.expectSameAsWholePhoto(photo: path, rects: rects, changed: true, what)
      } else {
        #expect(!FileManager.default.fileExists(atPath: run.spliced), "\(what): a spliced output was left")
      }
    }
  }
}

extension JPEGSpliceTests {
  /// A photo of more than 2 MB, whose scan the index splits between two threads on a machine with two cores (the
  /// second decodes from the middle of the data from a guessed state): spliced edits above, across and below the
  /// middle read as the whole-photo edit; the same photo damaged in its second half (a removed stuffed zero, a stray
  /// marker, a cut) is refused, and a flipped bit is refused or, where libjpeg reads it silently, spliced right. Read
  /// through a window (each thread its own), it splices to the same bytes and is refused alike.
  @Test(
    "A photo scanned in two threads splices as the whole-photo edit, and its damage is refused",
    arguments: SplicePhoto.samplings.filter { ["4:4:4", "4:2:0"].contains($0.name) })
  func photoScannedInTwoThreads(_ sampling: SamplingCase) throws {
    let fixtures = try Fixtures()
    defer { fixtures.remove() }
    // Noise at quality 90 takes about 1.5 bytes a pixel at 4:4:4 (0.9 at 4:2:0): 1800 x 1400 pixels is over 2 MB.
    let (width, height) = (1800, 1400)
    var pixels = [UInt8](repeating: 0, count: width * height * 3)
    var state: UInt64 = 0x9E37_79B9_7F4A_7C15
    for i in pixels.indices {
      state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      pixels[i] = UInt8(truncatingIfNeeded: state >> 56)
    }
    let path = fixtures.path("big.jpg")
    var message = [CChar](repeating: 0, count: 256)
    let status = sjt_fixture_write_coded(
      path, pixels, Int32(width), Int32(height), 3, 0, sampling.h.map(Int32.init), sampling.v.map(Int32.init), 90, 0, 0,
      &message, message.count)
    try #require(status == 0, "\(message.nulTerminatedText)")
    let clean = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
    try #require(clean.count > 2 << 20, "\(clean.count) bytes")
    let photo = SplicePhoto(sampling: sampling, width: width, height: height)
    let (wide, high) = (photo.mcusWide, photo.mcusHigh)
    let splice = try SpliceState()
    let windowed = try SpliceState(window: 65_536)
    /// The same edit through the window: the same outcome, the same bytes.
    func expectSameThroughAWindow(_ held: BothWays, photo: String, rects: [MCURect], _ label: String) throws {
      let read = try BothWays(
        fixtures, windowed.pointer, photo: photo, rects: rects, edit: spliceEdits[0].1,
        outputs: ("read.jpg", "read-whole.jpg"))
      #expect(read.outcome.index == held.outcome.index, "\(label): \(read.outcome.spliceText)")
      #expect(read.outcome.spliced == held.outcome.spliced, "\(label): \(read.outcome.spliceText)")
      if held.outcome.spliced == 0 {
        #expect(FileManager.default.contentsEqual(atPath: read.spliced, andPath: held.spliced), "\(label)")
      }
    }
    #expect(try !holdsWhole(windowed, path))
    let layouts: [(String, [MCURect])] = [
      ("first and last rows", [MCURect(3, 0, 5, 1), MCURect(0, high - 1, wide, 1)]),
      ("across the middle", [MCURect(wide / 3, high / 2 - 2, wide / 3, 4)]),
      ("around the middle", [MCURect(0, high / 2 - 1, 2, 1), MCURect(wide - 2, high / 2 + 1, 2, 2)]),
    ]
    for (layout, rects) in layouts {
      for (name, edit) in [spliceEdits[1], spliceEdits[3]] {
        let run = try BothWays(fixtures, splice.pointer, photo: path, rects: rects, edit: edit)
        try run.expectSameAsWholePhoto(photo: path, rects: rects, changed: true, "\(layout), \(name)")
      }
      let held = try BothWays(fixtures, splice.pointer, photo: path, rects: rects, edit: spliceEdits[0].1)
      try expectSameThroughAWindow(held, photo: path, rects: rects, layout)
    }

    let data = try #require(entropyRange(clean))
    let late = data.lowerBound + data.count * 3 / 4
    let stuffed = try #require((late..<data.upperBound - 1).first { clean[$0] == 0xFF && clean[$0 + 1] == 0 })
    var copies: [(String, [UInt8])] = [
      ("stuffed zero removed at byte \(stuffed + 1)", Array(clean[...stuffed]) + Array(clean[(stuffed + 2)...])),
      ("marker put at byte \(late)", Array(clean[..<late]) + [0xFF, 0xD5] + Array(clean[late...])),
      ("cut at byte \(late)", Array(clean.prefix(late))),
    ]
    for k in 0..<4 {
      let at = late + k * 9_973
      copies.append(("bit flipped at byte \(at)", clean.replacing(at: at, with: clean[at] ^ 0x10)))
    }
    let damaged = fixtures.path("damaged.jpg")
    let rects = [MCURect(wide / 2, high / 4, 2, 1)]
    for (what, copy) in copies {
      try Data(copy).write(to: URL(fileURLWithPath: damaged))
      let run = try BothWays(fixtures, splice.pointer, photo: damaged, rects: rects, edit: spliceEdits[0].1)
      try expectSameThroughAWindow(run, photo: damaged, rects: rects, what)
      let warned = libjpegWarnings(damaged).map { $0 > 0 } ?? true
      if warned || !what.hasPrefix("bit flipped") {
        #expect(run.outcome.index == 1 || run.outcome.index == 2, "\(what): \(run.outcome.spliceText)")
      }
      if run.outcome.index == 0 {
        try run.expectSameAsWholePhoto(photo: damaged, rects: rects, changed: true, what)
      }
    }
  }
}

extension Array where Element == UInt8 {
  fileprivate func replacing(at index: Int, with byte: UInt8) -> [UInt8] {
    var copy = self
    copy[index] = byte
    return copy
  }
}
