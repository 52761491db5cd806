import Foundation
import StampCore
import StampTestFolders
import Testing

@testable import StampManifest

/// `JobExpansion`: a job over many photos becomes one job a photo, in the photos' order, with its id, outputs and
/// place; the checking pass refuses what would make two jobs write one file.
struct JobExpansionTests {
  /// A manifest in `folder` with `jobs` (JSON objects), decoded and expanded with checks: each made job as
  /// "id -> output @ordinal", each problem as "! path: message".
  private func expand(_ folder: TestFolder, _ jobs: [String]) throws -> [String] {
    let url = try folder.write("m.json", #"{"version": 1, "jobs": [\#(jobs.joined(separator: ","))]}"#)
    let decoder = ManifestDecoder()
    let listed = try decoder.decode(contentsOf: url).jobs.lazy.map { Result<JobEntry, ManifestError>.success($0) }
    var made = decoder.expanding(listed.makeIterator(), file: "m.json")
    var seen: [String] = []
    while let record = made.next() {
      switch record {
      case .success(let job): seen.append("\(job.id) -> \(job.output) @\(job.position)")
      case .failure(let error): seen += error.diagnostics.map { "! \($0.path): \($0.message)" }
      }
    }
    return seen
  }

  private func make(_ folder: TestFolder, _ files: [String]) throws {
    for file in files { try folder.write(file, "x") }
  }

  @Test func aGlobMakesAJobAPhotoInByteOrderAndTheJobsAfterItKeepTheirPlace() throws {
    let folder = try TestFolder("expansion")
    defer { folder.remove() }
    try make(folder, ["in/b.jpg", "in/a.jpg", "in/sub/c.jpg", "in/Z.jpg", "in/notes.txt"])
    let jobs = [
      #"{"id": "first", "base": "p.jpg", "output": "first.jpg"}"#,
      #"{"id": "wm", "photos": "in/**/*.jpg", "output": "stamped/{dir}/{stem}-{index}.png"}"#,
      #"{"id": "last", "base": "p.jpg", "output": "last.jpg"}"#,
    ]
    // "Z" (0x5A) sorts before "a"; the folder "sub" after "b.jpg". The last job is at index 2 plus the three
    // photos made beyond one.
    #expect(
      try expand(folder, jobs) == [
        "first -> first.jpg @0",
        "wm/Z.jpg -> stamped/Z-0.png @1",
        "wm/a.jpg -> stamped/a-1.png @2",
        "wm/b.jpg -> stamped/b-2.png @3",
        "wm/sub/c.jpg -> stamped/sub/c-3.png @4",
        "last -> last.jpg @5",
      ])
  }

  @Test func eachMadeJobHasItsPhotoAsBaseAndTheTemplatesSettings() throws {
    let folder = try TestFolder("expansion")
    defer { folder.remove() }
    try make(folder, ["in/2024/a.jpg"])
    let url = try folder.write(
      "m.json",
      #"{"version": 1, "jobs": [{"id": "wm", "photos": "in/**/*.jpg", "viewOutput": "v/{dir}/{name}.png", "#
        + #""view": {"width": 100, "height": 200}, "stamps": [{"id": "s", "image": "s.png", "center": [1, 2]}]}]}"#)
    let decoder = ManifestDecoder()
    let listed = try decoder.decode(contentsOf: url).jobs.lazy.map { Result<JobEntry, ManifestError>.success($0) }
    var made = decoder.expanding(listed.makeIterator(), file: "m.json")
    let job = try #require(try made.next()?.get())
    #expect(job.base == folder.url.path + "/in/2024/a.jpg")
    #expect(job.photo == "2024/a.jpg")
    #expect(job.photos == nil)
    #expect(job.output == "2024/a.jpg")
    #expect(job.viewOutput == "v/2024/a.jpg.png")
    #expect(job.stamps.map(\.image) == [folder.url.path + "/s.png"])
    #expect(job.view == StampSize(100, 200))
    #expect(made.next() == nil)
    #expect(made.count == 1)
  }

  @Test func twoPhotosWhoseTemplateGivesOneFileAreBothNamed() throws {
    let folder = try TestFolder("expansion")
    defer { folder.remove() }
    try make(folder, ["in/a.jpeg", "in/a.jpg"])
    let found = try expand(folder, [#"{"id": "wm", "photos": "in/*", "output": "{stem}.jpg"}"#])
    #expect(
      found == [
        "wm/a.jpeg -> a.jpg @0",
        "! jobs[0].output: \"a.jpg\" of job \"wm/a.jpg\" is also written by job \"wm/a.jpeg\": the same file",
      ])
  }

  @Test func aPhotosFileMeetingAListedJobsOutputIsRefusedWhicheverComesFirst() throws {
    let folder = try TestFolder("expansion")
    defer { folder.remove() }
    try make(folder, ["in/a.jpg"])
    let listed = #"{"id": "one", "base": "p.jpg", "output": "a.jpg"}"#
    let many = #"{"id": "wm", "photos": "in/*.jpg"}"#
    #expect(
      try expand(folder, [listed, many]).last
        == "! jobs[1].output: \"a.jpg\" of job \"wm/a.jpg\" is also written by job \"one\": the same file")
    #expect(
      try expand(folder, [many, listed]).last
        == "! jobs[1].output: \"a.jpg\" of job \"one\" is also written by job \"wm/a.jpg\": the same file")
    // Two listed jobs are the decoder's to tell, not told again here.
    let decoder = ManifestDecoder()
    let url = try folder.write(
      "two.json", #"{"version": 1, "jobs": [\#(listed), \#(listed.replacingOccurrences(of: "one", with: "two"))]}"#)
    #expect(decoder.validate(contentsOf: url).count == 1)
  }

  @Test func anIdAPhotosJobAlsoHasIsRefused() throws {
    let folder = try TestFolder("expansion")
    defer { folder.remove() }
    try make(folder, ["in/a.jpg"])
    let found = try expand(
      folder, [#"{"id": "wm/a.jpg", "base": "p.jpg", "output": "x.jpg"}"#, #"{"id": "wm", "photos": "in/*.jpg"}"#])
    #expect(found.contains { $0.hasPrefix("! jobs[1].id: job \"wm\" over many photos names its photos' jobs") })
  }

  @Test func aGlobThatMatchesNothingAndAMissingFolderAreErrors() throws {
    let folder = try TestFolder("expansion")
    defer { folder.remove() }
    try make(folder, ["in/a.png"])
    #expect(
      try expand(folder, [#"{"id": "wm", "photos": "in/*.jpg"}"#]) == [
        "! jobs[0].photos: \"in/*.jpg\" matches no photo"
      ])
    let missing = try expand(folder, [#"{"id": "wm", "photos": "gone/*.jpg"}"#])
    #expect(missing.first?.hasPrefix("! jobs[0].photos: ") == true)
    #expect(missing.first?.contains("gone") == true)
    #expect(missing.first?.contains("no such file or directory") == true)
  }

  @Test func aListFileNamesPhotosRelativeToItsFolder() throws {
    let folder = try TestFolder("expansion")
    defer { folder.remove() }
    // Blank lines are skipped, a CRLF line loses its CR, "./" is dropped, an absolute path loses its "/" in the id.
    try folder.write("lists/photos.txt", "b.jpg\r\n\n./sub/a.jpg\n\(folder.url.path)/abs.jpg\n")
    let found = try expand(
      folder, [#"{"id": "wm", "photos": {"list": "lists/photos.txt"}, "output": "o/{dir}/{stem}.jpg"}"#])
    let root = String(folder.url.path.dropFirst())
    #expect(
      found == [
        "wm/b.jpg -> o/b.jpg @0", "wm/sub/a.jpg -> o/sub/a.jpg @1", "wm/\(root)/abs.jpg -> o/\(root)/abs.jpg @2",
      ])
  }

  @Test func aListedPhotoWhoseFolderLeavesOutIsRefusedByName() throws {
    let folder = try TestFolder("expansion")
    defer { folder.remove() }
    try folder.write("photos.txt", "../up.jpg\n")
    let found = try expand(folder, [#"{"id": "wm", "photos": {"list": "photos.txt"}}"#])
    #expect(
      found == [
        "! jobs[0].output: job \"wm/../up.jpg\": \"../up.jpg\" must not contain a '..' component (outputs stay "
          + "under --out)"
      ])
  }

  @Test func anEmptyListAndOneThatCannotBeReadAreErrors() throws {
    let folder = try TestFolder("expansion")
    defer { folder.remove() }
    try folder.write("empty.txt", "\n\n")
    #expect(
      try expand(folder, [#"{"id": "wm", "photos": {"list": "empty.txt"}}"#]) == [
        "! jobs[0].photos: the list \"empty.txt\" names no photo"
      ])
    let missing = try expand(folder, [#"{"id": "wm", "photos": {"list": "none.txt"}}"#])
    #expect(
      missing == ["! jobs[0].photos: \(folder.url.path)/none.txt: cannot read the list (no such file or directory)"])
  }

  @Test func onlyOneJobMayListItsPhotosOnStandardInput() throws {
    let folder = try TestFolder("expansion")
    defer { folder.remove() }
    let url = try folder.write(
      "m.json",
      #"{"version": 1, "jobs": [{"id": "a", "photos": {"list": "-"}}, {"id": "b", "photos": {"list": "-"}}]}"#)
    let decoder = ManifestDecoder()
    let listed = try decoder.decode(contentsOf: url).jobs.lazy.map { Result<JobEntry, ManifestError>.success($0) }
    // Both jobs' photos come from a source given here, so standard input is never read.
    let given: PhotoSources = { _ in .success(NamedPhotos(["x.jpg"])) }
    var made = decoder.expanding(listed.makeIterator(), file: "m.json", sources: given)
    var problems: [String] = []
    while let record = made.next() {
      if case .failure(let error) = record { problems += error.diagnostics.map(\.path) }
    }
    #expect(problems == ["jobs[1].photos.list"])
  }

  @Test func aGlobThatIsNotOneIsRefusedAtDecode() throws {
    let folder = try TestFolder("expansion")
    defer { folder.remove() }
    let url = try folder.write("m.json", #"{"version": 1, "jobs": [{"id": "wm", "photos": "in/[a-.jpg"}]}"#)
    let problems = ManifestDecoder().validate(contentsOf: url)
    #expect(problems.map(\.path) == ["jobs[0].photos"])
    #expect(problems.first?.message.contains("is not a photo glob") == true)
  }

  /// The pass that renders (no checks) streams a list of a million photos: it reads the list as it goes (a line
  /// added to the file after the first job was made is still made, last), holding one line at a time.
  @Test func aMillionListedPhotosStream() throws {
    let folder = try TestFolder("expansion")
    defer { folder.remove() }
    var text: [UInt8] = []
    text.reserveCapacity(16_000_000)
    for k in 0..<1_000_000 { text += Array("d\(k % 100)/p\(k).jpg\n".utf8) }
    try folder.write("photos.txt", bytes: text)
    text = []
    var template = JobEntry(id: "wm", base: "", output: "{dir}/{stem}.jpg")
    template.photos = PhotoSet(.list("photos.txt"), folder: folder.url.path)
    var made = JobExpansion(
      [Result<JobEntry, ManifestError>.success(template)].makeIterator(), file: "m.json", checking: false)
    #expect(try made.next()?.get().id == "wm/d0/p0.jpg")
    let appended = try FileHandle(forWritingTo: folder.url.appendingPathComponent("photos.txt"))
    try appended.seekToEnd()
    try appended.write(contentsOf: Data("late/added.jpg\n".utf8))
    try appended.close()
    var last: JobEntry?
    while let record = made.next() { last = try record.get() }
    #expect(made.count == 1_000_001)
    #expect(last?.id == "wm/late/added.jpg")
    #expect(last?.output == "late/added.jpg")
    #expect(last?.position == 1_000_000)
  }

  /// The check holds a hash for each output, not its path or job: a clash among 20,000 photos is still told naming
  /// both photos, found again by walking the list to the earlier one.
  @Test func aClashAmongManyPhotosNamesBothPhotos() throws {
    let folder = try TestFolder("expansion")
    defer { folder.remove() }
    var text = ""
    for k in 0..<20_000 { text += "d\(k % 100)/p\(k).jpg\n" }
    // p103.jpg is made at place 103 in d3; the clashes come last.
    text += "d3/p103.jpeg\nd4/p104.jpg/x.jpg\n"
    try folder.write("photos.txt", text)
    let found = try expand(folder, [#"{"id": "wm", "photos": {"list": "photos.txt"}, "output": "{dir}/{stem}.jpg"}"#])
    #expect(found.count == 20_002)
    #expect(
      found.filter { $0.hasPrefix("!") } == [
        "! jobs[0].output: \"d3/p103.jpg\" of job \"wm/d3/p103.jpeg\" is also written by job \"wm/d3/p103.jpg\": "
          + "the same file",
        "! jobs[0].output: \"d4/p104.jpg/x.jpg\" of job \"wm/d4/p104.jpg/x.jpg\" needs \"d4/p104.jpg\" as a folder, "
          + "but job \"wm/d4/p104.jpg\" writes it as a file",
      ])
  }

  /// Each photo named again costs a walk to it: past a few, the earlier photo is told by its place.
  @Test func pastAFewClashesTheEarlierPhotoIsToldByItsPlace() throws {
    let folder = try TestFolder("expansion")
    defer { folder.remove() }
    let count = JobExpansion<IndexingIterator<[Result<JobEntry, ManifestError>]>>.Checks.maxWalksAgain + 4
    let photos = (0..<count).map { "p\($0).jpg" } + (0..<count).map { "p\($0).jpeg" }
    try folder.write("photos.txt", photos.joined(separator: "\n"))
    let found = try expand(folder, [#"{"id": "wm", "photos": {"list": "photos.txt"}, "output": "{stem}.jpg"}"#])
    let told = found.filter { $0.hasPrefix("!") }
    #expect(told.count == count)
    #expect(told.first?.hasSuffix("is also written by job \"wm/p0.jpg\": the same file") == true)
    #expect(
      told.last?.hasSuffix("is also written by the photo with {index} \(count - 1) of job \"wm\": the same file")
        == true,
      "\(told.last ?? "")")
    #expect(told.filter { $0.contains("by the photo with {index}") }.count == 4)
  }
}
