import CJPEGDirect
import CVipsGlue
import Foundation
import StampCore
import StampTestShim
import StampTestSupport
import Testing

@testable import StampRender

@Suite("Restart intervals: which to encode again, and copying the others byte for byte")
struct RestartIntervalTests {
  /// Hand-worked spans for a photo 20 MCUs wide and 15 high (300 MCUs).
  @Test func spansStartAndEndWhereRowsAndIntervalsBothDo() throws {
    // One interval per row: rows 3-4 and 4-7 merge into rows 3 ..< 8, intervals 3 ..< 8.
    let perRow = try #require(RestartSpans(rows: [3..<5, 4..<8], mcusWide: 20, mcusHigh: 15, interval: 20))
    #expect(perRow.spans == [.init(rows: 3..<8, firstInterval: 3, intervals: 5)])
    // 8 MCUs an interval: rows start intervals every lcm(20, 8) / 20 = 2 rows. Row 3 needs rows 2 ..< 4, MCUs
    // 40 ..< 80, intervals 5 ..< 10. Row 14 (the last) needs rows 14 ..< 15, MCUs 280 ..< 300: intervals 35, 36
    // and the short last one, 37 (ceil(300 / 8) = 38 in all).
    let eight = try #require(RestartSpans(rows: [3..<4, 14..<15], mcusWide: 20, mcusHigh: 15, interval: 8))
    #expect(
      eight.spans == [
        .init(rows: 2..<4, firstInterval: 5, intervals: 5), .init(rows: 14..<15, firstInterval: 35, intervals: 3),
      ])
    // 7 MCUs: rows in steps of 7; row 8 needs rows 7 ..< 14, MCUs 140 ..< 280, intervals 20 ..< 40.
    let seven = try #require(RestartSpans(rows: [8..<9], mcusWide: 20, mcusHigh: 15, interval: 7))
    #expect(seven.spans == [.init(rows: 7..<14, firstInterval: 20, intervals: 20)])
  }

  @Test func spansCoveringEveryRowAreNotWorthIt() {
    #expect(RestartSpans(rows: [0..<15], mcusWide: 20, mcusHigh: 15, interval: 20) == nil)
    // 1000 MCUs an interval: steps of 50 rows, more than the photo has.
    #expect(RestartSpans(rows: [4..<5], mcusWide: 20, mcusHigh: 15, interval: 1000) == nil)
    #expect(RestartSpans(rows: [], mcusWide: 20, mcusHigh: 15, interval: 20) == nil)
  }

  /// A 160 x 240 photo with restart markers and two stamps far apart (two spans): the output has the same
  /// coefficients as the transplant that decodes and encodes the whole photo (a libvips fallback would not),
  /// keeps the restart markers, reads with libjpeg without a warning, and every interval outside the spans holds
  /// the source's very bytes.
  @Test(arguments: [
    JPEGLayout(subsampling: .none, restartInterval: 20), JPEGLayout(subsampling: .none, restartInterval: 7),
    JPEGLayout(subsampling: .half, restartInterval: 10), JPEGLayout(subsampling: .half, restartInterval: 4),
  ])
  func untouchedIntervalsAreCopiedAndTheRestMatchesAFullTransplant(_ c: JPEGLayout) throws {
    let fixtures = try Fixtures()
    defer { fixtures.remove() }
    let base = try fixtures.jpeg(
      "base.jpg", width: 160, height: 240, subsampling: c.subsampling, restartInterval: c.restartInterval
    ) { Fixtures.texture($0, $1) }
    let plan = try fixtures.redStamps(
      on: base,
      at: [
        PlacedStamp(id: "a", center: StampPoint(40, 40), size: StampSize(16, 16), scale: 1, rotation: 20),
        PlacedStamp(id: "b", center: StampPoint(120, 180), size: StampSize(16, 16), scale: 1.5, rotation: 0),
      ])
    // Both ways, one after the other and back, with the codecs they leave behind for the next job.
    let (copied, decoded) = try fixtures.renderBothWays(plan)
    let again = fixtures.path("again.jpg")
    #expect(try Renderer().render(plan, to: again) == .restartIntervals)
    #expect(FileManager.default.contentsEqual(atPath: copied, andPath: again))

    for component in 0..<3 {
      #expect(try differingBlocks(copied, decoded, component: component).blocks.isEmpty)
      #expect(try !differingBlocks(copied, base, component: component).blocks.isEmpty)
    }
    try readStrictly(copied)  // any libjpeg warning (a wrong restart number) is an error here

    let source = try EntropyIntervals(path: base)
    let output = try EntropyIntervals(path: copied)
    #expect(output.intervals.count == source.intervals.count)
    #expect(output.markersInOrder && source.markersInOrder)
    let unchanged = zip(source.intervals, output.intervals).filter { $0 == $1 }.count
    // The stamps sit in MCU rows near y = 40 and y = 180; most intervals lie elsewhere.
    #expect(unchanged > source.intervals.count / 2, "\(unchanged) of \(source.intervals.count) intervals copied")
    #expect(unchanged < source.intervals.count)
  }

  /// Huffman tables optimized for the picture lack codes an edit may need: the whole-photo transplant is used
  /// instead, with the same coefficients (its output keeps the photo's restart interval, and optimized tables).
  @Test func optimizedTablesFallBackToTheWholePhoto() throws {
    let fixtures = try Fixtures()
    defer { fixtures.remove() }
    let base = try fixtures.jpeg(
      "base.jpg", width: 96, height: 96, subsampling: .none, restartInterval: 12, optimizedTables: true
    ) { Fixtures.texture($0, $1) }
    let (copied, decoded) = try fixtures.renderBothWays(try fixtures.redStamps(on: base))
    for component in 0..<3 {
      #expect(try differingBlocks(copied, decoded, component: component).blocks.isEmpty)
    }
    #expect(try EntropyIntervals(path: base).intervals.count == 12)  // 12 x 12 MCUs, 12 an interval
    #expect(try EntropyIntervals(path: copied).intervals.count == 12)
    #expect(try Renderer().render(try fixtures.redStamps(on: base), to: fixtures.path("again.jpg")) == .transplant)
  }
}

extension RestartIntervalTests {
  /// Damaged files with restart markers: cut short, or with two markers swapped. Neither can be indexed (the
  /// intervals do not add up, or run out of order), so the intervals are not copied and the photo is read whole.
  /// Cut short, libvips refuses it: the job's error names the photo and no file is left behind. With markers out of
  /// order libjpeg resynchronizes (a corrupt-data warning, as djpeg reports it): the default `--fail-on error` fails
  /// the job the same way, and `--fail-on truncated` lets it render a fresh, clean JPEG.
  @Test(arguments: ["cut", "swapped"])
  func damagedFilesAreReadWhole(_ damage: String) throws {
    let fixtures = try Fixtures()
    defer { fixtures.remove() }
    let good = try fixtures.jpeg("good.jpg", width: 96, height: 96, subsampling: .none, restartInterval: 12) {
      Fixtures.texture($0, $1)
    }
    var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: good)))
    if damage == "cut" {
      bytes = Array(bytes.prefix(bytes.count * 2 / 3))
    } else {
      // RST1 and RST2 become RST2 and RST1.
      let one = try #require(bytes.markers(0xD1).first)
      let two = try #require(bytes.markers(0xD2).first)
      (bytes[one + 1], bytes[two + 1]) = (0xD2, 0xD1)
    }
    let base = fixtures.path("\(damage).jpg")
    try Data(bytes).write(to: URL(fileURLWithPath: base))
    try FileManager.default.removeItem(atPath: good)
    let plan = try fixtures.redStamps(on: base)
    let output = fixtures.path("out.jpg")
    if damage == "cut" {
      do {
        try Renderer().render(plan, to: output)
        Issue.record("rendering a truncated photo succeeded")
      } catch let error as RenderError {
        #expect(error.description.contains("cut.jpg"))
      }
      #expect(try fixtures.files() == ["cut.jpg", "red.png"])
    } else {
      #expect(throws: RenderError.self) { try Renderer().render(plan, to: output) }
      #expect(try fixtures.files() == ["red.png", "swapped.jpg"])
      var lenient = Renderer()
      lenient.inputs.failOn = .truncated
      try lenient.render(plan, to: output)
      try readStrictly(output)
      #expect(try EntropyIntervals(path: output).intervals.count == 1)
    }
  }
}

extension RestartIntervalTests {
  /// A scan header naming Huffman table 15 (there are four; libjpeg checks only when it decodes): found by
  /// scripts/fuzz-jpeg as a read through a wild pointer (the process died of SIGSEGV). Now the intervals are not
  /// copied, and the photo fails with libjpeg's complaint, naming it.
  @Test func scanNamingAMissingTableFailsCleanly() throws {
    let fixtures = try Fixtures()
    defer { fixtures.remove() }
    let good = try fixtures.jpeg("good.jpg", width: 96, height: 96, subsampling: .none, restartInterval: 12) {
      Fixtures.texture($0, $1)
    }
    var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: good)))
    // SOS: FF DA, length (2), component count, then (id, tables) pairs: the third component's become DC 15, AC 9,
    // as in the fuzzer's input.
    let sos = try #require(bytes.markers(0xDA).first)
    bytes[sos + 10] = 0xF9
    let base = fixtures.path("tables.jpg")
    try Data(bytes).write(to: URL(fileURLWithPath: base))
    let plan = try fixtures.redStamps(on: base)
    do {
      try Renderer().render(plan, to: fixtures.path("out.jpg"))
      Issue.record("rendering a photo whose scan names a missing table succeeded")
    } catch let error as RenderError {
      #expect(error.description.contains("tables.jpg"))
    }
  }
}

extension RestartIntervalTests {
  /// No stamps (or none on the photo): only the first row of intervals is read and written again, for the header;
  /// every other interval is the source's bytes, and every coefficient is the source's. The header is a new one:
  /// the photo's GPS position and camera make stay behind, its ICC profile comes along.
  @Test func withNothingToDrawEveryIntervalButTheFirstRowIsCopied() throws {
    let fixtures = try Fixtures()
    defer { fixtures.remove() }
    let base = try fixtures.jpeg(
      "base.jpg", width: 160, height: 120, subsampling: .half, icc: true,
      fields: ["exif-ifd3-GPSLatitude": "51 28 40", "exif-ifd0-Make": "Phone"], restartInterval: 10
    ) { Fixtures.texture($0, $1) }
    let input = try Image.open(base, sequential: false)
    try #require(scv_has_field(input.pointer, "exif-ifd3-GPSLatitude") != 0)
    let output = fixtures.path("out.jpg")
    try Renderer().render(RenderPlan(base: base, stamps: []), to: output)
    let written = try Image.open(output, sequential: false)
    #expect(scv_has_field(written.pointer, "exif-ifd3-GPSLatitude") == 0)
    #expect(scv_has_field(written.pointer, "exif-ifd0-Make") == 0)
    #expect(scv_has_field(written.pointer, "icc-profile-data") != 0)
    for component in 0..<3 {
      #expect(try differingBlocks(base, output, component: component).blocks.isEmpty)
    }
    // 10 x 8 MCUs of 16 x 16, an interval a row: 8 intervals; the first re-encoded (the same coefficients, the
    // same tables, so most likely the same bytes too), the other seven copied.
    let source = try EntropyIntervals(path: base)
    let copied = try EntropyIntervals(path: output)
    #expect(source.intervals.count == 8 && copied.intervals.count == 8 && copied.markersInOrder)
    #expect(Array(source.intervals.dropFirst()) == Array(copied.intervals.dropFirst()))
  }
}

extension Fixtures {
  /// A plan for `base` drawing a 16 x 16 red stamp (written as red.png) at each of `placements`.
  func redStamps(
    on base: String,
    at placements: [PlacedStamp] = [
      PlacedStamp(id: "a", center: StampPoint(30, 30), size: StampSize(16, 16), scale: 1, rotation: 0)
    ]
  ) throws -> RenderPlan {
    let stamp = try solid("red.png", width: 16, height: 16, pixel: [230, 20, 20, 255])
    return RenderPlan(base: base, stamps: placements.map { .init(image: stamp, placement: $0) })
  }

  /// `plan` rendered with the untouched restart intervals copied (copied.jpg) and with every coefficient read and
  /// written (whole.jpg).
  func renderBothWays(_ plan: RenderPlan) throws -> (copied: String, whole: String) {
    let copied = path("copied.jpg")
    try Renderer().render(plan, to: copied)
    var whole = Renderer()
    whole.copiesRestartIntervals = false
    let decoded = path("whole.jpg")
    try whole.render(plan, to: decoded)
    return (copied, decoded)
  }
}

/// Reads every coefficient of `path` with libjpeg, any warning (a wrong restart number, say) an error.
func readStrictly(_ path: String) throws {
  let codec = try #require(JPEGCodec())
  _ = try codec.open(path)
  try codec.readCoefficients()
  codec.close()
}

/// Writes to `path` a copy of the JPEG `bytes` with the first bit flipped at an offset in `range` (away from any 0xFF:
/// no marker made or unmade; offsets then bits in order) that libjpeg's own read of the copy warns about (most do:
/// the decoder loses step). False when no flip there does.
func writeFirstFlipLibjpegWarnsAbout(_ bytes: [UInt8], in range: Range<Int>, to path: String) throws -> Bool {
  for at in range where at > 0 && bytes[at - 1] != 0xFF && bytes[at] != 0xFF {
    for bit in 0..<8 where bytes[at] ^ (1 << bit) != 0xFF {
      var copy = bytes
      copy[at] ^= 1 << bit
      try Data(copy).write(to: URL(fileURLWithPath: path))
      if (try? readStrictly(path)) == nil { return true }
    }
  }
  return false
}

/// A JPEG's entropy-coded data cut at its restart markers, read independently of the code under test.
struct EntropyIntervals {
  var intervals: [[UInt8]] = []
  /// True when the markers run RST0, RST1, ... RST7, RST0, ...
  var markersInOrder = true

  init(path: String) throws {
    let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
    // Marker segments up to the end of SOS.
    var at = 2
    var scan = -1
    while at + 4 <= bytes.count, scan < 0 {
      guard bytes[at] == 0xFF else { break }
      let marker = bytes[at + 1]
      let length = Int(bytes[at + 2]) << 8 | Int(bytes[at + 3])
      if marker == 0xDA { scan = at + 2 + length }
      at += 2 + length
    }
    guard scan > 0 else { throw RenderError.write(path: path, message: "no scan found") }
    var current: [UInt8] = []
    var i = scan
    while i < bytes.count {
      if bytes[i] == 0xFF, i + 1 < bytes.count, bytes[i + 1] != 0x00 {
        let code = bytes[i + 1]
        intervals.append(current)
        current = []
        if code == 0xD9 { return }
        if code != 0xD0 + UInt8((intervals.count - 1) % 8) { markersInOrder = false }
        i += 2
        continue
      }
      current.append(bytes[i])
      i += bytes[i] == 0xFF ? 2 : 1  // a stuffed 0xFF 0x00 stays one data byte here, its 0x00 dropped
    }
  }
}

extension RestartIntervalTests {
  /// One bit flipped in an interval no stamp touches (intervals copied without being decoded for the edit): at the
  /// default `--fail-on error` the job fails as the pixel path does, naming the photo and leaving no file; at
  /// `none` the intervals are copied as they are; the undamaged photo renders the same bytes either way.
  @Test func aFlippedBitInACopiedIntervalFailsAtTheDefaultLevel() throws {
    let fixtures = try Fixtures()
    defer { fixtures.remove() }
    // 160 x 240 at 4:2:0: MCUs of 16 x 16, 10 a row, 15 rows; 10 MCUs an interval, so interval k is MCU row k. The
    // stamp at (30, 30) touches rows 0-3 at most; interval 12 (pixel rows 192 ..< 208) is copied.
    let good = try fixtures.jpeg("good.jpg", width: 160, height: 240, subsampling: .half, restartInterval: 10) {
      Fixtures.texture($0, $1)
    }
    let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: good)))
    let restarts = bytes.indices.dropLast().filter { bytes[$0] == 0xFF && (0xD0...0xD7).contains(bytes[$0 + 1]) }
    try #require(restarts.count == 14)
    // Interval 12 lies between the 12th and the 13th marker. The first bit flipped there that libjpeg's own read
    // of the photo warns about (most do: the decoder loses step), away from any 0xFF (no marker made or unmade).
    let damaged = fixtures.path("flipped.jpg")
    try #require(try writeFirstFlipLibjpegWarnsAbout(bytes, in: (restarts[11] + 4)..<(restarts[12] - 2), to: damaged))

    let plan = try fixtures.redStamps(on: damaged)
    let output = fixtures.path("out.jpg")
    // Both paths: the error names the photo and says what libjpeg found, in the same words.
    for name in ["out.jpg", "out.png"] {
      do {
        let path = try Renderer().render(plan, to: fixtures.path(name))
        Issue.record("a photo with a corrupt interval rendered to \(name) by the \(path) path")
      } catch RenderError.input(let path, let problem) {
        #expect(path.hasSuffix("flipped.jpg"))
        #expect(problem.hasPrefix("corrupt JPEG data (Corrupt JPEG data: "), "\(name): \(problem)")
      }
    }
    #expect(try fixtures.files() == ["flipped.jpg", "good.jpg", "red.png"])

    var lenient = Renderer()
    lenient.inputs.failOn = .none
    #expect(try lenient.render(plan, to: output) == .restartIntervals)
    #expect(try EntropyIntervals(path: output).intervals[12] == EntropyIntervals(path: damaged).intervals[12])

    let clean = try fixtures.redStamps(on: good)
    let checked = fixtures.path("checked.jpg")
    let unchecked = fixtures.path("unchecked.jpg")
    #expect(try Renderer().render(clean, to: checked) == .restartIntervals)
    #expect(try lenient.render(clean, to: unchecked) == .restartIntervals)
    #expect(FileManager.default.contentsEqual(atPath: checked, andPath: unchecked))
  }
}

extension RestartIntervalTests {
  /// A 160 x 240 photo at 4:2:0 with 10 MCUs an interval: MCUs of 16 x 16, 10 a row, so interval k is MCU row k. A
  /// stamp at (30, 30) touches rows 0-3 at most, and interval 12 (pixel rows 192 ..< 208) is copied. The photo's
  /// bytes, and where interval 12's entropy-coded data lies in them.
  static func photoWithACopiedInterval(_ fixtures: Fixtures) throws -> (bytes: [UInt8], interval: Range<Int>) {
    let good = try fixtures.jpeg("good.jpg", width: 160, height: 240, subsampling: .half, restartInterval: 10) {
      Fixtures.texture($0, $1)
    }
    let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: good)))
    let restarts = bytes.indices.dropLast().filter { bytes[$0] == 0xFF && (0xD0...0xD7).contains(bytes[$0 + 1]) }
    try #require(restarts.count == 14)
    return (bytes, (restarts[11] + 2)..<restarts[12])
  }

  /// How a job reports the damage libjpeg finds when it reads every coefficient of `path` itself; nil when it finds
  /// none.
  static func libjpegsComplaint(_ path: String) -> String? {
    do {
      try readStrictly(path)
      return nil
    } catch RenderError.damaged(_, let message, let truncated) {
      return truncated ? "truncated JPEG" : "corrupt JPEG data (\(message))"
    } catch {
      return "\(error)"
    }
  }

  /// How many times `path`'s restart intervals are read whole by libjpeg to be checked (the entropy scanner reads
  /// them first), and whether the check passed.
  static func checkCountingLibjpeg(_ path: String) throws -> (reads: UInt, passed: Bool) {
    let codec = try #require(JPEGCodec())
    _ = try codec.open(path)
    try #require(try codec.indexRestarts() == 10)
    let passed = (try? codec.checkRestarts()) != nil
    return (sjt_libjpeg_checks(codec.state), passed)
  }

  /// Damage in an interval no stamp touches, of kinds the entropy scanner finds first: the job fails at the default
  /// `--fail-on error` with what libjpeg's own read of the photo says, word for word, and leaves no file, because
  /// libjpeg reads the intervals whenever the scanner finds something. The undamaged photo is not read by libjpeg
  /// at all to be checked.
  @Test(arguments: ["bit flipped", "bytes taken out", "bytes put in"])
  func damageInACopiedIntervalFailsTheJobInLibjpegsWords(_ damage: String) throws {
    let fixtures = try Fixtures()
    defer { fixtures.remove() }
    let (bytes, interval) = try Self.photoWithACopiedInterval(fixtures)
    #expect(try Self.checkCountingLibjpeg(fixtures.path("good.jpg")) == (0, true))
    // Away from any 0xFF, so that no marker is made or unmade and the intervals still index.
    let middle = try #require(
      (interval.lowerBound + interval.count / 2..<interval.upperBound - 8).first { at in
        (at - 1..<at + 9).allSatisfy { bytes[$0] != 0xFF }
      })
    var copy = bytes
    switch damage {
    case "bit flipped":
      // The first flip from the middle on that libjpeg warns about (most do: the decoder loses step).
      let probe = fixtures.path("probe.jpg")
      var found = false
      search: for at in middle..<interval.upperBound - 1 where bytes[at - 1] != 0xFF && bytes[at] != 0xFF {
        for bit in 0..<8 where bytes[at] ^ (1 << bit) != 0xFF {
          copy = bytes
          copy[at] ^= 1 << bit
          try Data(copy).write(to: URL(fileURLWithPath: probe))
          if Self.libjpegsComplaint(probe) != nil {
            found = true
            break search
          }
        }
      }
      try #require(found)
      try FileManager.default.removeItem(atPath: probe)
    case "bytes taken out": copy.removeSubrange(middle..<middle + 3)
    default: copy.insert(contentsOf: [0x12, 0x34, 0x56, 0x78, 0x9A, 0xBC, 0xDE, 0x0F], at: middle)
    }
    let damaged = fixtures.path("damaged.jpg")
    try Data(copy).write(to: URL(fileURLWithPath: damaged))
    let complaint = try #require(Self.libjpegsComplaint(damaged))
    #expect(complaint.hasPrefix("corrupt JPEG data (Corrupt JPEG data: "), "\(complaint)")
    #expect(try Self.checkCountingLibjpeg(damaged) == (1, false))

    let plan = try fixtures.redStamps(on: damaged)
    do {
      let path = try Renderer().render(plan, to: fixtures.path("out.jpg"))
      Issue.record("a photo with \(damage) in a copied interval rendered by the \(path) path")
    } catch RenderError.input(let path, let problem) {
      #expect(path == damaged)
      #expect(problem == complaint)
    }
    #expect(try fixtures.files() == ["damaged.jpg", "good.jpg", "red.png"])
  }

  /// Damage in a copied interval that only the entropy scanner sees: a flipped bit (see `Scan.stricterThanLibjpeg`),
  /// or two bytes between the last MCU and EOI (libjpeg-turbo drops the bytes its bit buffer took in past the scan's
  /// last MCU unread). libjpeg reads the intervals, finds nothing, and the job renders at the default `--fail-on
  /// error` as it does when nothing is checked, the interval copied as it is.
  @Test(arguments: ["bit flipped", "two bytes before EOI"])
  func damageOnlyTheScannerSeesStillRenders(_ damage: String) throws {
    let fixtures = try Fixtures()
    defer { fixtures.remove() }
    let (bytes, interval) = try Self.photoWithACopiedInterval(fixtures)
    var copy = bytes
    if damage == "bit flipped" {
      copy = try #require(Scan.stricterThanLibjpeg(bytes, in: interval))
    } else {
      copy.insert(contentsOf: [0x12, 0x34], at: try #require(bytes.markers(0xD9).last))
    }
    #expect(Scan(copy).result.status == Int32(SJS_DAMAGED))
    let base = fixtures.path("stricter.jpg")
    try Data(copy).write(to: URL(fileURLWithPath: base))
    #expect(Self.libjpegsComplaint(base) == nil)
    #expect(try Self.checkCountingLibjpeg(base) == (1, true))

    let plan = try fixtures.redStamps(on: base)
    let checked = fixtures.path("checked.jpg")
    let unchecked = fixtures.path("unchecked.jpg")
    #expect(try Renderer().render(plan, to: checked) == .restartIntervals)
    var lenient = Renderer()
    lenient.inputs.failOn = .none
    #expect(try lenient.render(plan, to: unchecked) == .restartIntervals)
    #expect(FileManager.default.contentsEqual(atPath: checked, andPath: unchecked))
    // Interval 12 holds the flipped bit, the last one (14) the two bytes.
    let damaged = damage == "bit flipped" ? 12 : 14
    #expect(try EntropyIntervals(path: checked).intervals[damaged] == EntropyIntervals(path: base).intervals[damaged])
  }
}
