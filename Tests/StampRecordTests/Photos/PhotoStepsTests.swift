import Foundation
import StampManifest
import StampTestFolders
import Testing

@testable import StampRecord

@Suite("PhotoSteps: the photos the recorder steps through are the batch's expansion, in its order")
struct PhotoStepsTests {
  /// A manifest whose job `wm` globs `in/**/*.png`, over empty files (nothing is decoded to expand a job).
  static func folderJob(_ folder: TestFolder, photos: String = "\"in/**/*.png\"") throws -> (JobEntry, String) {
    for name in ["in/B.png", "in/a.png", "in/a/z.png", "in/b/x.png", "in/b/y.jpg", "in/c.PNG"] {
      try folder.write(name, "")
    }
    let text = """
      {"version": 1, "jobs": [
        {"id": "before", "base": "in/a.png", "output": "before.png"},
        {"id": "wm", "photos": \(photos), "output": "out/{dir}/{stem}-{index}.png"}]}
      """
    let path = try folder.write("m.json", text).path
    let jobs = try ManifestDecoder().decode(contentsOf: URL(fileURLWithPath: path)).jobs
    return (try #require(jobs.first { $0.id == "wm" }), path)
  }

  @Test func theStepsAreTheBatchsExpansionInItsOrder() throws {
    let folder = try TestFolder()
    defer { folder.remove() }
    let (template, path) = try Self.folderJob(folder)
    let steps = try PhotoSteps(template, file: path)
    let shown = (0..<steps.count).compactMap { steps.photo(at: $0)?.relative }
    // By hand: `in/`'s entries sorted by their bytes are "B.png" (0x42), "a" (a folder, shorter than "a.png"),
    // "a.png", "b"; a folder's photos come at its place; "y.jpg" and "c.PNG" do not match (case kept).
    #expect(shown == ["B.png", "a/z.png", "a.png", "b/x.png"])
    #expect(steps.count == 4 && steps.total == 4 && steps.index == 0)
    // The batch's own expansion of the whole manifest makes the same jobs, in the same order, with the same ids,
    // photos and filled outputs.
    let decoder = ManifestDecoder()
    let jobs = try decoder.decode(contentsOf: URL(fileURLWithPath: path)).jobs
    var expansion = decoder.expanding(jobs.map { .success($0) }.makeIterator(), file: path)
    var batch: [JobEntry] = []
    while let made = expansion.next() { batch.append(try made.get()) }
    let made = batch.filter { $0.photo != nil }
    #expect(made.map(\.id) == shown.map { "wm/" + $0 })
    for (index, job) in made.enumerated() {
      let mine = try #require(steps.job(at: index, gestures: []))
      #expect(mine.id == job.id && mine.base == job.base && mine.output == job.output && mine.photo == job.photo)
    }
    // `{dir}` is empty at the root and `{index}` counts from 0: "out/{dir}/{stem}-{index}.png" for "a.png".
    #expect(steps.job(at: 2, gestures: [])?.output == "out/a-2.png")
    #expect(steps.job(at: 3, gestures: [])?.output == "out/b/x-3.png")
    #expect(steps.job(at: 4, gestures: []) == nil && steps.photo(at: -1) == nil)
    #expect(steps.index(ofJob: "wm/a/z.png") == 1 && steps.index(ofJob: "wm/zz.png") == nil)
    #expect(steps.index(ofJob: "before") == nil)
  }

  @Test func aListFileIsSteppedInTheOrderItIsWritten() throws {
    let folder = try TestFolder()
    defer { folder.remove() }
    try folder.write("photos.txt", "in/b/x.png\n\nin/B.png\r\nin/a.png\n")
    let (template, path) = try Self.folderJob(folder, photos: "{\"list\": \"photos.txt\"}")
    let steps = try PhotoSteps(template, file: path)
    #expect((0..<steps.count).compactMap { steps.photo(at: $0)?.relative } == ["in/b/x.png", "in/B.png", "in/a.png"])
    #expect(steps.photo(at: 1)?.path == folder.path("in/B.png"))
  }

  @Test func photosPastTheHeldPathBytesAreCountedButCannotBeShown() throws {
    let folder = try TestFolder()
    defer { folder.remove() }
    let (template, path) = try Self.folderJob(folder)
    let all = try PhotoSteps(template, file: path)
    // Each photo holds its relative path and its path, each ended by a NUL byte: room for the first two exactly.
    let record = { (i: Int) -> Int in
      guard let photo = all.photo(at: i) else { return 0 }
      return photo.relative.utf8.count + photo.path.utf8.count + 2
    }
    let two = try PhotoSteps(template, file: path, maxPathBytes: record(0) + record(1))
    #expect(two.count == 2 && two.total == 4)
    #expect(two.photo(at: 1) == all.photo(at: 1) && two.photo(at: 2) == nil)
    let none = try PhotoSteps(template, file: path, maxPathBytes: 1)
    #expect(none.count == 0 && none.total == 4)
  }

  @Test func aJobWhosePhotosCannotBeRenderedIsRefusedAsValidateRefusesIt() throws {
    let folder = try TestFolder()
    defer { folder.remove() }
    let (template, path) = try Self.folderJob(folder, photos: "\"in/**/*.gif\"")
    #expect {
      try PhotoSteps(template, file: path)
    } throws: { error in
      let text = "\(error)"
      return text.contains("jobs[1].photos") && text.contains("\"in/**/*.gif\" matches no photo")
    }
    // Two photos writing one output: `{dir}` dropped, "a/z.png" and "b/z.png" would both write "z.png".
    try folder.write("in/b/z.png", "")
    var clashing = template
    clashing.photos?.source = .glob("in/**/*.png", ignoreCase: false)
    clashing.output = "{stem}.png"
    #expect {
      try PhotoSteps(clashing, file: path)
    } throws: { error in
      "\(error)".contains("wm/a/z.png") && "\(error)".contains("wm/b/z.png")
    }
  }
}
