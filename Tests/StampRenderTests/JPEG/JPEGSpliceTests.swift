import CJPEGDirect
import Foundation
import StampFiles
import StampTestShim
import Testing

/// A rectangle of whole MCUs (8 x max h by 8 x max v pixels each), as the splice takes them.
struct MCURect: Sendable, CustomStringConvertible {
  var left, top, width, height: Int
  init(_ left: Int, _ top: Int, _ width: Int, _ height: Int) {
    (self.left, self.top, self.width, self.height) = (left, top, width, height)
  }
  var description: String { "\(width)x\(height) MCUs at (\(left), \(top))" }
}

extension [MCURect] {
  /// Four ints a rectangle, as the C calls take them.
  var flat: [Int32] { flatMap { [$0.left, $0.top, $0.width, $0.height].map { Int32(clamping: $0) } } }
}

/// A photo the splice is tried on: sampling, size and Huffman tables, written by libjpeg.
struct SplicePhoto: CustomTestStringConvertible, Sendable {
  /// The standard tables (every symbol coded), tables fitted to the picture (symbols it does not use have no code),
  /// or tables of the file's own that code every symbol, with other codes than the standard ones.
  enum Tables: Int32, Sendable { case standard = 0, optimized = 1, own = 2 }

  var sampling: SamplingCase
  var width: Int
  var height: Int
  var tables = Tables.standard
  var testDescription: String { "\(sampling.name), \(width)x\(height), \(tables) tables" }

  var mcusWide: Int { (width + 8 * (sampling.h.max() ?? 1) - 1) / (8 * (sampling.h.max() ?? 1)) }
  var mcusHigh: Int { (height + 8 * (sampling.v.max() ?? 1) - 1) / (8 * (sampling.v.max() ?? 1)) }

  /// Writes the textured picture with libjpeg (quality 90), with a restart marker every `restartInterval` MCUs.
  func write(_ fixtures: Fixtures, _ name: String = "photo.jpg", restartInterval: Int = 0) throws -> String {
    let components = sampling.components
    let pixels = Fixtures.samples(width: width, height: height, bands: components) { x, y in
      Array(Fixtures.texture(x, y).prefix(components))
    }
    let path = fixtures.path(name)
    var message = [CChar](repeating: 0, count: 256)
    let status = sjt_fixture_write_coded(
      path, pixels, Int32(width), Int32(height), Int32(components), sampling.rgbCoded ? 1 : 0,
      sampling.h.map(Int32.init), sampling.v.map(Int32.init), 90, tables.rawValue, Int32(restartInterval), &message,
      message.count)
    try #require(status == 0, "\(message.nulTerminatedText)")
    return path
  }

  /// Every sampling the splice takes, 4:1:0 (10 blocks an MCU, the most a baseline scan allows) among them.
  static let samplings = SamplingCase.all

  /// Sizes that are whole MCUs in no sampling but the 1 x 1 photo's single MCU: every layout has padding blocks.
  static let sizes = [(1, 1), (17, 9), (33, 31), (250, 173)]

  static let all: [SplicePhoto] = samplings.flatMap { sampling in
    sizes.map { SplicePhoto(sampling: sampling, width: $0.0, height: $0.1) }
  }

  /// The rectangles tried on a photo `wide` x `high` MCUs: corners, edges, the whole photo, one MCU, several in the
  /// same MCU rows (touching, and an MCU apart), one away from the right edge.
  static func layouts(wide: Int, high: Int) -> [(String, [MCURect])] {
    var layouts: [(String, [MCURect])] = [
      ("the whole photo", [MCURect(0, 0, wide, high)]),
      ("one MCU at the top left", [MCURect(0, 0, 1, 1)]),
      ("one MCU at the bottom right", [MCURect(wide - 1, high - 1, 1, 1)]),
      ("the right edge", [MCURect(wide - 1, 0, 1, high)]),
      ("the bottom edge", [MCURect(0, high - 1, wide, 1)]),
      ("one MCU in the middle", [MCURect(wide / 2, high / 2, 1, 1)]),
    ]
    var corners: [MCURect] = []
    for (x, y) in [(0, 0), (wide - 1, 0), (0, high - 1), (wide - 1, high - 1)]
    where !corners.contains(where: { $0.left == x && $0.top == y }) {
      corners.append(MCURect(x, y, 1, 1))
    }
    if corners.count > 1 { layouts.append(("the corners", corners)) }
    let top = high > 2 ? 1 : 0
    let rows = min(2, high - top)
    if wide >= 2 {
      layouts.append(("two touching in the same rows", [MCURect(0, top, 1, rows), MCURect(1, top, wide - 1, rows)]))
    }
    if wide >= 3 {
      layouts.append(
        ("two an MCU apart in the same rows", [MCURect(0, top, 1, rows), MCURect(2, top, wide - 2, rows)]))
      layouts.append(("one away from both side edges", [MCURect(1, top, wide - 2, rows)]))
    }
    if wide >= 5 {
      layouts.append(
        ("three single MCUs in the first row", [MCURect(0, 0, 1, 1), MCURect(2, 0, 1, 1), MCURect(4, 0, 1, 1)]))
    }
    if wide >= 3 && high >= 3 {
      layouts.append(("two with a row between", [MCURect(0, 0, 2, 1), MCURect(1, 2, wide - 1, high - 2)]))
    }
    return layouts
  }
}

/// The edits every layout is tried with: a pattern over every block or over some, the right-most MCUs of each row
/// painted black or white (their DC far from the photo's, which the next MCU's difference is coded against), the
/// first MCU painted, no change (blocks encoded again from their own decode), no block replaced (the rectangle's own
/// coefficients encoded again), and a pattern over a region of the rectangle at an offset from its origin.
let spliceEdits: [(String, sjo_edit)] = [
  (
    "a pattern, every block",
    sjo_edit(edit: Int32(SJO_EDIT_PATTERN), mask: Int32(SJO_MASK_ALL), seed: 1, orientation: 1)
  ),
  (
    "a pattern, some blocks",
    sjo_edit(edit: Int32(SJO_EDIT_PATTERN), mask: Int32(SJO_MASK_SOME), seed: 2, orientation: 6)
  ),
  (
    "the right column black",
    sjo_edit(edit: Int32(SJO_EDIT_RIGHT_COLUMN), mask: Int32(SJO_MASK_ALL), seed: 3, orientation: 1)
  ),
  (
    "the right column white",
    sjo_edit(edit: Int32(SJO_EDIT_RIGHT_COLUMN), mask: Int32(SJO_MASK_ALL), seed: 4, orientation: 1)
  ),
  (
    "the first MCU white", sjo_edit(edit: Int32(SJO_EDIT_FIRST_MCU), mask: Int32(SJO_MASK_ALL), seed: 6, orientation: 1)
  ),
  ("no change", sjo_edit(edit: Int32(SJO_EDIT_NONE), mask: Int32(SJO_MASK_ALL), seed: 7, orientation: 1)),
  ("nothing replaced", sjo_edit(edit: Int32(SJO_EDIT_NONE), mask: Int32(SJO_MASK_NONE), seed: 8, orientation: 1)),
  (
    "a pattern from the second MCU column and row",
    sjo_edit(edit: Int32(SJO_EDIT_PATTERN), mask: Int32(SJO_MASK_SOME), seed: 9, orientation: 1, inset: true)
  ),
]

extension sjo_edit {
  init(edit: Int32, mask: Int32, seed: UInt32, orientation: Int32, inset: Bool = false) {
    self.init(
      edit: edit, mask: mask, seed: seed, orientation: orientation, whole_only: 0, whole_after_splice: 0,
      inset: inset ? 1 : 0)
  }
}

/// The text of a NUL-terminated C array of a struct (imported as a tuple).
func cText<T>(_ tuple: T) -> String {
  withUnsafeBytes(of: tuple) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
}

extension sjo_outcome {
  var spliceText: String { "\(cText(splice_step)) returned \(spliced): \(cText(splice_message))" }
  var transcodeText: String { "\(cText(transcode_step)) returned \(transcoded): \(cText(transcode_message))" }
}

/// libjpeg's comparison of two JPEGs' coefficients in every real block, those of the MCUs in `outside` left out.
func compareCoefficients(_ a: String, _ b: String, outside rects: [MCURect] = []) throws -> sjo_difference {
  var difference = sjo_difference()
  var message = [CChar](repeating: 0, count: 256)
  let status = sjo_compare(a, b, rects.flat, Int32(rects.count), &difference, &message, message.count)
  try #require(status == 0, "comparing \(a) with \(b): \(message.nulTerminatedText)")
  return difference
}

extension sjo_difference {
  var firstText: String { "\(differing) of \(compared) blocks differ, first component \(component) block (\(x), \(y))" }
}

/// One edit made both ways on `photo` through `state`; the outputs are `spliced.jpg` and `whole.jpg` (or `outputs`).
struct BothWays {
  var outcome = sjo_outcome()
  var spliced: String
  var whole: String

  init(
    _ fixtures: Fixtures, _ state: OpaquePointer?, photo: String, rects: [MCURect], edit: sjo_edit,
    outputs: (String, String) = ("spliced.jpg", "whole.jpg")
  ) throws {
    spliced = fixtures.path(outputs.0)
    whole = fixtures.path(outputs.1)
    var edit = edit
    let status = sjo_edit_both_ways(state, photo, rects.flat, Int32(rects.count), &edit, spliced, whole, &outcome)
    try #require(status == 0, "\(outcome.transcodeText)")
  }

  /// The oracle: the splice was taken, and its output reads with libjpeg, without a warning, to the very
  /// coefficients of the whole-photo edit in every real block, and to the photo's outside the rectangles. `label`
  /// names the case in failures.
  func expectSameAsWholePhoto(photo: String, rects: [MCURect], changed: Bool, _ label: String) throws {
    #expect(outcome.index == 0, "\(label): the index refused: \(outcome.spliceText)")
    #expect(outcome.bad_rects_taken == 0, "\(label)")
    guard outcome.index == 0 else { return }
    #expect(outcome.spliced == 0, "\(label): \(outcome.spliceText)")
    #expect(outcome.transcoded == 0, "\(label): \(outcome.transcodeText)")
    #expect(outcome.pixels_differ == 0, "\(label): \(outcome.pixels_differ) samples decode otherwise spliced")
    guard outcome.spliced == 0 && outcome.transcoded == 0 else { return }
    let same = try compareCoefficients(spliced, whole)
    #expect(same.warnings.0 == 0, "\(label): libjpeg warns \(same.warnings.0) times reading the spliced output")
    #expect(same.warnings.1 == 0, "\(label): libjpeg warns reading the whole-photo output")
    #expect(same.differing == 0, "\(label): against the whole-photo edit, \(same.firstText)")
    #expect(same.compared > 0)
    let outside = try compareCoefficients(spliced, photo, outside: rects)
    #expect(outside.differing == 0, "\(label): outside the rectangles, against the photo, \(outside.firstText)")
    if changed {
      // The edit did something, or agreeing would prove nothing.
      let edited = try compareCoefficients(whole, photo)
      #expect(edited.differing > 0, "\(label): the whole-photo edit changed no block")
    }
  }
}

/// A state for the C calls, freed at the end of the scope that made it.
final class SpliceState {
  let pointer: OpaquePointer?
  init() throws {
    pointer = sjt_new()
    try #require(pointer != nil)
  }
  deinit { sjt_free(pointer) }
}

@Suite("The spliced JPEG path, against libjpeg's reading of the whole-photo edit")
struct JPEGSpliceTests {
  @Test("Spliced edits read as the whole-photo edit, and as the photo outside them", arguments: SplicePhoto.all)
  func splicedEditsMatchTheWholePhotoEdit(_ photo: SplicePhoto) throws {
    let fixtures = try Fixtures()
    defer { fixtures.remove() }
    let path = try photo.write(fixtures)
    // One state for every edit, as a job's codec serves photo after photo.
    let state = try SpliceState()
    for (layout, rects) in SplicePhoto.layouts(wide: photo.mcusWide, high: photo.mcusHigh) {
      for (name, edit) in spliceEdits {
        let run = try BothWays(fixtures, state.pointer, photo: path, rects: rects, edit: edit)
        try run.expectSameAsWholePhoto(
          photo: path, rects: rects, changed: edit.edit != Int32(SJO_EDIT_NONE), "\(layout), \(name)")
      }
    }
  }
}

extension JPEGSpliceTests {
  /// A rectangle away from the right edge whose right-most MCUs are painted: the DC of the last block of each of its
  /// MCU rows moves far from the photo's, and the MCU after it, copied as bits, must have its first DC difference
  /// coded again against the new value. And a rectangle whose first MCU is painted: its DC is far from the one the
  /// photo's MCU before it predicts. Both ways give the same coefficients, and the photo's outside.
  @Test("DC differences at a rectangle's ends are coded against the edited blocks", arguments: SplicePhoto.samplings)
  func dcDifferencesAtTheEnds(_ sampling: SamplingCase) throws {
    let fixtures = try Fixtures()
    defer { fixtures.remove() }
    let photo = SplicePhoto(sampling: sampling, width: 250, height: 173)
    let path = try photo.write(fixtures)
    let source = try #require(LibjpegDC(try [UInt8](Data(contentsOf: URL(fileURLWithPath: path))), components: 1))
    // 250 x 173 pixels are at least 8 x 11 MCUs (32 x 16 pixels at most): MCU columns 1-2 and rows 1-2 have MCUs on
    // every side.
    let rects = [MCURect(1, 1, 2, 2)]
    let state = try SpliceState()
    let (h, v) = (sampling.h[0], sampling.v[0])
    // The first component's blocks whose DC the edit must move: the last of the rectangle's first MCU row (MCU (2, 1),
    // its bottom-right block, which the MCU (3, 1) after it is predicted from), or the first of its first MCU.
    let cases: [(String, sjo_edit, (x: Int, y: Int))] = [
      ("right column white", spliceEdits[3].1, (3 * h - 1, 2 * v - 1)),
      ("right column black", spliceEdits[2].1, (3 * h - 1, 2 * v - 1)),
      ("first MCU white", spliceEdits[4].1, (h, v)),
    ]
    for (name, edit, block) in cases {
      let run = try BothWays(fixtures, state.pointer, photo: path, rects: rects, edit: edit)
      try run.expectSameAsWholePhoto(photo: path, rects: rects, changed: true, name)
      guard run.outcome.transcoded == 0 else { continue }
      let edited = try #require(
        LibjpegDC(try [UInt8](Data(contentsOf: URL(fileURLWithPath: run.whole))), components: 1))
      let (before, after) = (source.grids[0], edited.grids[0])
      let at = block.y * before.wide + block.x
      try #require(before.wide == after.wide && at < before.dc.count)
      // Painted white or black over a mid-grey texture: tens of quantization steps at quality 90.
      #expect(abs(Int(after.dc[at]) - Int(before.dc[at])) >= 8, "\(name): DC \(before.dc[at]) -> \(after.dc[at])")
    }
  }
}

extension JPEGSpliceTests {
  /// Every other MCU a rectangle of its own, as a checkerboard: a seam at every MCU, copied runs of one MCU between
  /// re-encoded ones, hundreds of rectangles in one splice.
  @Test("A checkerboard of single-MCU rectangles reads as the whole-photo edit", arguments: SplicePhoto.samplings)
  func checkerboardOfSingleMCUs(_ sampling: SamplingCase) throws {
    let fixtures = try Fixtures()
    defer { fixtures.remove() }
    let photo = SplicePhoto(sampling: sampling, width: 250, height: 173)
    let path = try photo.write(fixtures)
    var rects: [MCURect] = []
    for y in 0..<photo.mcusHigh {
      for x in 0..<photo.mcusWide where (x + y) % 2 == 0 { rects.append(MCURect(x, y, 1, 1)) }
    }
    let state = try SpliceState()
    for (name, edit) in [spliceEdits[1], spliceEdits[3]] {
      let run = try BothWays(fixtures, state.pointer, photo: path, rects: rects, edit: edit)
      try run.expectSameAsWholePhoto(photo: path, rects: rects, changed: true, "\(rects.count) rectangles, \(name)")
    }
  }
}
