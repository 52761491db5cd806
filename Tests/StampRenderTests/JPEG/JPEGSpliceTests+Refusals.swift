import CJPEGDirect
import Foundation
import StampFiles
import StampTestShim
import Testing

/// The marker segments FF `code` before a JPEG's scan (their length and payload), in order, read from the bytes.
func headerSegments(_ path: String, _ code: UInt8) throws -> [[UInt8]] {
  let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
  var segments: [[UInt8]] = []
  var at = 2
  while at + 4 <= bytes.count, bytes[at] == 0xFF, bytes[at + 1] != 0xDA {
    let length = Int(bytes[at + 2]) << 8 | Int(bytes[at + 3])
    if bytes[at + 1] == code { segments.append(Array(bytes[(at + 2)..<min(bytes.count, at + 2 + length)])) }
    at += 2 + length
  }
  return segments
}

/// Calls `body` with a cleared message buffer; its status and message.
func withMessage(_ body: (UnsafeMutablePointer<CChar>, Int) -> Int32) -> (status: Int32, message: String) {
  var message = [CChar](repeating: 0, count: 512)
  let status = message.withUnsafeMutableBufferPointer { buffer -> Int32 in
    guard let base = buffer.baseAddress else { return Int32.min }
    return body(base, buffer.count)
  }
  return (status, message.nulTerminatedText)
}

extension JPEGSpliceTests {
  /// Huffman tables fitted to the picture code only the symbols it has. The index takes them; an edit whose blocks
  /// need only those codes is spliced (and reads as the whole-photo edit), and one that needs another (a block's
  /// symbol, or a DC difference at a seam) is refused by the encode or the write (1, with a message, nothing
  /// written), after which the whole-photo edit on the same opened file writes what it writes alone, byte for byte.
  /// The whole photo with no block replaced needs only the photo's own codes: it is spliced.
  @Test(
    "Optimized tables splice the edits their codes cover, and refuse the others cleanly",
    arguments: SplicePhoto.samplings)
  func optimizedTablesSpliceWhatTheirCodesCover(_ sampling: SamplingCase) throws {
    let fixtures = try Fixtures()
    defer { fixtures.remove() }
    let state = try SpliceState()
    var (taken, refused) = (0, 0)
    for (width, height) in [(17, 9), (250, 173)] {
      let photo = SplicePhoto(sampling: sampling, width: width, height: height, tables: .optimized)
      let path = try photo.write(fixtures)
      for (layout, rects) in SplicePhoto.layouts(wide: photo.mcusWide, high: photo.mcusHigh) {
        for (name, edit) in spliceEdits {
          let label = "\(width)x\(height), \(layout), \(name)"
          let run = try BothWays(fixtures, state.pointer, photo: path, rects: rects, edit: edit)
          #expect(run.outcome.index == 0, "\(label): \(run.outcome.spliceText)")
          if run.outcome.spliced == 0 {
            taken += 1
            try run.expectSameAsWholePhoto(
              photo: path, rects: rects, changed: edit.edit != Int32(SJO_EDIT_NONE), label)
          } else {
            refused += 1
            #expect(run.outcome.spliced == 1, "\(label): \(run.outcome.spliceText)")
            try expectTheWholePhotoEditFollows(fixtures, state, run, photo: path, rects: rects, edit: edit, label)
          }
          if layout == "the whole photo" && name == "nothing replaced" {
            #expect(run.outcome.spliced == 0, "\(label): \(run.outcome.spliceText)")
          }
        }
      }
    }
    #expect(taken > 0 && refused > 0, "\(taken) edits spliced, \(refused) refused")
  }

  /// Files the splice does not take: progressive, with restart markers, grey sampled 2 x 2 (its scan's MCU is one
  /// block, not the frame's 16 x 16 pixels). Refused as above, and the whole-photo edit follows unchanged.
  @Test("Progressive, restart markers and grey sampled 2x2 are refused, and the whole-photo edit follows")
  func otherCodingsAreRefused() throws {
    let fixtures = try Fixtures()
    defer { fixtures.remove() }
    let state = try SpliceState()
    let progressive = try fixtures.jpeg("progressive.jpg", width: 57, height: 41, subsampling: .half, progressive: true)
    { Fixtures.texture($0, $1) }
    try expectRefusalLeavesTheWholePhotoEdit(fixtures, state, photo: progressive, "progressive")
    let restarts = try SplicePhoto(sampling: SamplingCase.all[2], width: 57, height: 41).write(
      fixtures, "restarts.jpg", restartInterval: 3)
    try expectRefusalLeavesTheWholePhotoEdit(fixtures, state, photo: restarts, "restart markers")
    let greyTwo = SamplingCase(name: "grey 2x2", components: 1, h: [2], v: [2])
    let grey = try SplicePhoto(sampling: greyTwo, width: 57, height: 41).write(fixtures, "grey.jpg")
    try expectRefusalLeavesTheWholePhotoEdit(fixtures, state, photo: grey, "grey sampled 2x2")
  }

  /// The index's refusal, and the whole-photo edit after it against the same edit made alone.
  func expectRefusalLeavesTheWholePhotoEdit(
    _ fixtures: Fixtures, _ state: SpliceState, photo: String, _ label: String
  ) throws {
    let rects = [MCURect(0, 0, 1, 1)]
    let edit = spliceEdits[0].1
    let run = try BothWays(fixtures, state.pointer, photo: photo, rects: rects, edit: edit)
    #expect(run.outcome.index == 1, "\(label): \(run.outcome.spliceText)")
    try expectTheWholePhotoEditFollows(fixtures, state, run, photo: photo, rects: rects, edit: edit, label)
    // The edit did something, or the equality proves nothing.
    #expect(try compareCoefficients(run.whole, photo).differing > 0)
  }

  /// After a refusal (with a message, no spliced output left), the whole-photo edit on the same opened file writes
  /// what it writes alone, byte for byte.
  func expectTheWholePhotoEditFollows(
    _ fixtures: Fixtures, _ state: SpliceState, _ run: BothWays, photo: String, rects: [MCURect], edit: sjo_edit,
    _ label: String
  ) throws {
    #expect(!cText(run.outcome.splice_message).isEmpty, "\(label): refused without a message")
    #expect(!FileManager.default.fileExists(atPath: run.spliced), "\(label): a spliced output was left")
    #expect(run.outcome.same_open == 1)
    #expect(run.outcome.transcoded == 0, "\(label): \(run.outcome.transcodeText)")
    var alone = edit
    alone.whole_only = 1
    let reference = try BothWays(
      fixtures, state.pointer, photo: photo, rects: rects, edit: alone, outputs: ("unused.jpg", "alone.jpg"))
    #expect(reference.outcome.transcoded == 0, "\(label): \(reference.outcome.transcodeText)")
    let (after, fresh) = (
      try Data(contentsOf: URL(fileURLWithPath: run.whole)), try Data(contentsOf: URL(fileURLWithPath: reference.whole))
    )
    #expect(after == fresh, "\(label): the whole-photo edit after the refusal differs from the one made alone")
  }

  /// A grey photo whose first blocks have DC values no 8-bit picture has (0, 2000, 2600, 2600, 2600: each difference
  /// at most 2047, so the photo codes them), one MCU of it edited black: the DC difference the splice would code at
  /// the seam after the MCU, or at its start, is past 2047, which no Huffman table codes. The splice writes nothing:
  /// it refuses (1) or fails (-1). The whole-photo edit, with the photo's standard tables, fails too (libjpeg-turbo's
  /// encoder would write the difference with no code): the job takes the pixel path.
  @Test("DC differences past 2047 are never spliced")
  func dcDifferencesPastWhatTablesCodeAreNotSpliced() throws {
    let fixtures = try Fixtures()
    defer { fixtures.remove() }
    let grey = SamplingCase(name: "grey", components: 1, h: [1], v: [1])
    let plain = try SplicePhoto(sampling: grey, width: 40, height: 8).write(fixtures, "plain.jpg")
    let path = fixtures.path("photo.jpg")
    var message = [CChar](repeating: 0, count: 256)
    let dc: [Int32] = [0, 2000, 2600, 2600, 2600]
    try #require(
      sjo_fixture_set_dc(plain, path, 0, dc, 5, &message, message.count) == 0, "\(message.nulTerminatedText)")
    let photo = try compareCoefficients(path, path)
    try #require(photo.warnings.0 == 0 && photo.out_of_range.0 == 4, "\(photo.out_of_range.0) blocks out of range")
    let state = try SpliceState()
    let black = sjo_edit(edit: Int32(SJO_EDIT_FIRST_MCU), mask: Int32(SJO_MASK_ALL), seed: 1, orientation: 1)
    // Block 1 black (about -341): the seam to block 2 (2600) needs about 2941. Block 2 black: its own start, against
    // block 1 (2000), needs about -2341.
    for rect in [MCURect(1, 0, 1, 1), MCURect(2, 0, 1, 1)] {
      let run = try BothWays(fixtures, state.pointer, photo: path, rects: [rect], edit: black)
      #expect(run.outcome.index == 0, "\(rect): \(run.outcome.spliceText)")
      #expect(!FileManager.default.fileExists(atPath: run.spliced), "\(rect): a spliced output was written")
      #expect(run.outcome.spliced == 1 || run.outcome.spliced == -1, "\(rect): \(run.outcome.spliceText)")
      #expect(!cText(run.outcome.splice_message).isEmpty)
      #expect(run.outcome.transcoded == -1, "\(rect): \(run.outcome.transcodeText)")
      #expect(run.outcome.transcodeText.contains("no baseline JPEG codes"), "\(rect): \(run.outcome.transcodeText)")
    }
  }

  /// When a splice cannot be written after its rectangles were opened and encoded (a seam's DC difference its table
  /// cannot code), the whole-coefficient edit follows on the same opened file: it must read the whole photo again,
  /// not the last rectangle's JPEG, and write what it writes on the file opened afresh, byte for byte.
  @Test(
    "The whole-photo edit after a splice on the same opened file is the one made alone",
    arguments: SplicePhoto.samplings.filter { ["4:2:0", "4:1:1", "grey", "RGB-coded"].contains($0.name) })
  func wholePhotoEditAfterASplice(_ sampling: SamplingCase) throws {
    let fixtures = try Fixtures()
    defer { fixtures.remove() }
    let state = try SpliceState()
    for (width, height) in [(33, 31), (250, 173)] {
      let photo = SplicePhoto(sampling: sampling, width: width, height: height)
      let path = try photo.write(fixtures)
      let rects = [MCURect(0, 0, 1, 1), MCURect(photo.mcusWide / 2, photo.mcusHigh / 2, 1, 1)]
      var edit = spliceEdits[0].1
      edit.whole_after_splice = 1
      let run = try BothWays(fixtures, state.pointer, photo: path, rects: rects, edit: edit)
      let label = "\(photo.testDescription)"
      try run.expectSameAsWholePhoto(photo: path, rects: rects, changed: true, label)
      #expect(run.outcome.same_open == 1)
      var alone = spliceEdits[0].1
      alone.whole_only = 1
      let reference = try BothWays(
        fixtures, state.pointer, photo: path, rects: rects, edit: alone, outputs: ("unused.jpg", "alone.jpg"))
      try #require(run.outcome.transcoded == 0 && reference.outcome.transcoded == 0, "\(label)")
      #expect(
        try Data(contentsOf: URL(fileURLWithPath: run.whole))
          == Data(contentsOf: URL(fileURLWithPath: reference.whole)),
        "\(label): the whole-photo edit after the splice differs from the one made alone")
    }
  }

  /// Tables of the photo's own that code every symbol, with codes other than the standard ones: the splice takes
  /// them, writes them back (the copied MCUs are coded with them), and the oracle holds.
  @Test("A photo's own complete Huffman tables are kept", arguments: SplicePhoto.samplings)
  func ownCompleteTablesAreKept(_ sampling: SamplingCase) throws {
    let fixtures = try Fixtures()
    defer { fixtures.remove() }
    let photo = SplicePhoto(sampling: sampling, width: 250, height: 173, tables: .own)
    let path = try photo.write(fixtures)
    let standard = try SplicePhoto(sampling: sampling, width: 250, height: 173).write(fixtures, "standard.jpg")
    // The fixture's tables are not the standard ones, or the case tests nothing.
    #expect(try headerSegments(path, 0xC4) != headerSegments(standard, 0xC4))
    let state = try SpliceState()
    let (wide, high) = (photo.mcusWide, photo.mcusHigh)
    for rects in [[MCURect(wide / 2, high / 2, 1, 1)], [MCURect(wide - 1, 0, 1, high)], [MCURect(0, 0, wide, high)]] {
      for (name, edit) in spliceEdits.prefix(3) {
        let run = try BothWays(fixtures, state.pointer, photo: path, rects: rects, edit: edit)
        try run.expectSameAsWholePhoto(photo: path, rects: rects, changed: true, "\(rects), \(name)")
        if run.outcome.spliced == 0 {
          #expect(try headerSegments(run.spliced, 0xC4) == headerSegments(path, 0xC4), "\(rects): other tables")
        }
      }
    }
  }

  /// Rectangles the index must refuse (overlapping, unsorted, outside the photo, empty, sizes that overflow), calls
  /// out of order (an open before the index, a rectangle that does not exist, an encode before an open, a write
  /// before every rectangle is encoded): each -1 with a message, never a crash, and nothing written. The same
  /// opened file then splices, and with no edit gives the photo's coefficients in every block.
  @Test("Bad arguments and calls out of order are refused, and the opened file still splices")
  func badArgumentsAreRefused() throws {
    let fixtures = try Fixtures()
    defer { fixtures.remove() }
    // 4:2:0, 64 x 48 pixels: 4 x 3 MCUs of 16 x 16.
    let path = try SplicePhoto(sampling: SamplingCase.all[2], width: 64, height: 48).write(fixtures)
    let state = try SpliceState()
    let s = state.pointer
    let input = open(path, O_RDONLY | O_CLOEXEC)
    try #require(input >= 0)
    defer { close(input) }
    var header = sjt_header()
    let opened = withMessage { sjt_open(s, input, 1 << 30, &header, $0, $1) }
    try #require(opened.status == 0, "\(opened.message)")
    try #require(header.width == 64 && header.height == 48)

    func expectRefused(_ result: (status: Int32, message: String), _ what: String) {
      #expect(result.status == -1, "\(what): returned \(result.status) (\(result.message))")
      #expect(!result.message.isEmpty, "\(what): no message")
    }
    func write(_ name: String) -> (status: Int32, message: String) {
      let fd = open(fixtures.path(name), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
      defer { if fd >= 0 { close(fd) } }
      return withMessage { sjt_splice_write(s, fd, 1, $0, $1) }
    }
    func size(_ name: String) -> Int {
      ((try? FileManager.default.attributesOfItem(atPath: fixtures.path(name)))?[.size] as? Int) ?? -1
    }

    expectRefused(withMessage { sjt_splice_open(s, 0, $0, $1) }, "an open before the index")
    expectRefused(withMessage { sjt_splice_encode(s, $0, $1) }, "an encode before the index")
    expectRefused(write("early.jpg"), "a write before the index")
    #expect(size("early.jpg") == 0)

    let bad: [(String, [MCURect])] = [
      ("overlapping", [MCURect(0, 0, 2, 2), MCURect(1, 1, 2, 1)]),
      ("the same twice", [MCURect(1, 1, 1, 1), MCURect(1, 1, 1, 1)]),
      ("rows unsorted", [MCURect(2, 1, 1, 1), MCURect(0, 0, 1, 1)]),
      ("unsorted in a row", [MCURect(2, 0, 1, 1), MCURect(0, 0, 1, 1)]),
      ("past the right edge", [MCURect(3, 0, 2, 1)]),
      ("past the bottom edge", [MCURect(0, 2, 1, 2)]),
      ("left of the photo", [MCURect(-1, 0, 2, 1)]),
      ("above the photo", [MCURect(0, -1, 1, 2)]),
      ("no width", [MCURect(0, 0, 0, 1)]),
      ("no height", [MCURect(1, 1, 1, 0)]),
      ("sizes that overflow", [MCURect(Int(Int32.max), 0, Int(Int32.max), 1)]),
      ("negative sizes", [MCURect(2, 2, -1, -1)]),
    ]
    for (what, rects) in bad {
      let flat = rects.flat
      expectRefused(withMessage { sjt_splice_index(s, flat, Int32(rects.count), $0, $1) }, what)
    }
    let one = [MCURect(0, 0, 1, 1)].flat
    expectRefused(withMessage { sjt_splice_index(s, one, -1, $0, $1) }, "a negative count")

    // Refusals changed nothing: the same opened file splices.
    let rects = [MCURect(0, 0, 1, 1), MCURect(2, 1, 2, 2)].flat
    let indexed = withMessage { sjt_splice_index(s, rects, 2, $0, $1) }
    try #require(indexed.status == 0, "\(indexed.message)")
    expectRefused(withMessage { sjt_splice_open(s, 2, $0, $1) }, "rectangle 2 of 2")
    expectRefused(withMessage { sjt_splice_open(s, -1, $0, $1) }, "rectangle -1")
    expectRefused(withMessage { sjt_splice_encode(s, $0, $1) }, "an encode before an open")
    #expect(withMessage { sjt_splice_open(s, 0, $0, $1) }.status == 0)
    #expect(withMessage { sjt_splice_encode(s, $0, $1) }.status == 0)
    expectRefused(write("early.jpg"), "a write before rectangle 1 is opened")
    #expect(size("early.jpg") == 0)
    #expect(withMessage { sjt_splice_open(s, 1, $0, $1) }.status == 0)
    expectRefused(write("early.jpg"), "a write before rectangle 1 is encoded")
    #expect(size("early.jpg") == 0)
    #expect(withMessage { sjt_splice_encode(s, $0, $1) }.status == 0)
    let written = write("spliced.jpg")
    #expect(written.status == 0, "\(written.message)")
    // Nothing edited: every block (no padding at 4 x 3 whole MCUs) is the photo's.
    let same = try compareCoefficients(fixtures.path("spliced.jpg"), path)
    #expect(same.differing == 0 && same.warnings == (0, 0), "\(same.firstText)")
    #expect(same.compared == 4 * 3 * 6)
    sjt_close(s)
  }
}

extension JPEGSpliceTests {
  /// A state serves photo after photo. A splice encodes its rectangles with the photo's own Huffman tables in the
  /// state's encoder, which also encodes regions through a small JPEG (the way taken when libjpeg's transforms
  /// cannot be used straight): the next photo's edit that way must not inherit them. Tables fitted to the first
  /// photo lack codes the second's blocks need; libjpeg's encoder writes such symbols without complaint.
  @Test("A splice leaves the next photo's small-JPEG edits as a fresh state makes them")
  func spliceLeavesTheNextPhotosEditsAlone() throws {
    let fixtures = try Fixtures()
    defer { fixtures.remove() }
    let sampling = SamplingCase(name: "4:2:0", h: [2, 1, 1], v: [2, 1, 1])
    let fitted = SplicePhoto(sampling: sampling, width: 96, height: 64, tables: .optimized)
    let fittedPath = try fitted.write(fixtures, "fitted.jpg")
    let plain = try SplicePhoto(sampling: sampling, width: 33, height: 31).write(fixtures, "plain.jpg")
    let rects = [MCURect(0, 0, 2, 2)]
    var alone = spliceEdits[0].1
    alone.whole_only = 1

    let fresh = try SpliceState()
    sjt_set_direct(fresh.pointer, 0)
    let reference = try BothWays(
      fixtures, fresh.pointer, photo: plain, rects: rects, edit: alone, outputs: ("unused.jpg", "reference.jpg"))
    try #require(reference.outcome.transcoded == 0, "\(reference.outcome.transcodeText)")

    let used = try SpliceState()
    sjt_set_direct(used.pointer, 0)
    let whole = [MCURect(0, 0, fitted.mcusWide, fitted.mcusHigh)]
    let first = try BothWays(fixtures, used.pointer, photo: fittedPath, rects: whole, edit: spliceEdits[6].1)
    try #require(first.outcome.spliced == 0, "\(first.outcome.spliceText)")
    let after = try BothWays(
      fixtures, used.pointer, photo: plain, rects: rects, edit: alone, outputs: ("unused.jpg", "after.jpg"))
    try #require(after.outcome.transcoded == 0, "\(after.outcome.transcodeText)")
    let same = try compareCoefficients(after.whole, reference.whole)
    #expect(same.differing == 0 && same.warnings == (0, 0), "\(same.firstText)")
  }
}
