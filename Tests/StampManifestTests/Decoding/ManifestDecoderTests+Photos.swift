import StampCore
import Testing

@testable import StampManifest

struct PhotoJobDecodingTests {
  private func decoded(_ job: String) throws -> JobEntry {
    let manifest = "{\"version\": 1,\n\"jobs\": [\n\(job)\n]}"
    let jobs = try ManifestDecoder().decode(Array(manifest.utf8), file: "set/m.json", folder: "set").jobs
    return try #require(jobs.first)
  }

  @Test func aGlobStringIsAJobOverManyPhotosWithTheDefaultTemplate() throws {
    let job = try decoded(#"{"id": "wm", "photos": "in/**/*.jpg"}"#)
    #expect(job.photos == PhotoSet(.glob("in/**/*.jpg", ignoreCase: false), folder: "set"))
    #expect(job.base.isEmpty)
    #expect(job.output == "{dir}/{stem}.jpg")
  }

  @Test func theObjectFormsGiveTheGlobsCaseOrAList() throws {
    let glob = try decoded(#"{"photos": {"glob": "*.JPG", "ignoreCase": true}, "output": "o/{name}"}"#)
    #expect(glob.photos?.source == .glob("*.JPG", ignoreCase: true))
    #expect(glob.output == "o/{name}")
    let list = try decoded(#"{"photos": {"list": "-"}, "output": "{index}.png"}"#)
    #expect(list.photos?.source == .list("-"))
  }

  @Test(arguments: [
    (#"{"base": "a.jpg", "photos": "*.jpg"}"#, #"m.json:3: jobs[0]: give "base" or "photos", not both"#),
    (#"{"id": "x"}"#, #"m.json:3: jobs[0]: needs "base" or "photos""#),
    (
      #"{"photos": "*.jpg", "output": "all.jpg"}"#,
      #"m.json:3: jobs[0].output: "all.jpg" gives every photo of a folder the same file: use {stem}, {name} or {index} in it"#
    ),
    (
      #"{"photos": "*.jpg", "viewOutput": "v/{dir}.jpg"}"#,
      #"m.json:3: jobs[0].viewOutput: "v/{dir}.jpg" gives every photo of a folder the same file: use {stem}, {name} or {index} in it"#
    ),
    (
      #"{"photos": {"list": "l.txt", "ignoreCase": false}}"#,
      #"m.json:3: jobs[0].photos.ignoreCase: applies to a glob; a list names its photos exactly"#
    ),
    (
      #"{"photos": 7}"#,
      #"m.json:3: jobs[0].photos: expected a glob (a string) or an object with "glob" or "list", found a number"#
    ),
    (#"{"photos": {}}"#, #"m.json:3: jobs[0].photos: needs "glob" or "list""#),
    (
      #"{"base": "b.jpg", "stamps": [{"id": "s", "image": "s.png", "photoCenter": [0.5, 0.5], "width": 3, "photoWidth": 0.2}]}"#,
      #"m.json:3: jobs[0].stamps[0].photoWidth: give "width" or "photoWidth", not both"#
    ),
    (
      #"{"base": "b.jpg", "stamps": [{"id": "s", "image": "s.png", "center": [1, 1], "photoCenter": [0.5, 0.5]}]}"#,
      #"m.json:3: jobs[0].stamps[0]: give "center" or "photoCenter", not both"#
    ),
  ])
  func mistakesAreNamedWithTheirPath(_ job: String, _ expected: String) {
    #expect(problems(job: job) == [expected])
  }

  @Test func aListedJobKeepsBracesInItsOutputAsText() throws {
    let job = try decoded(#"{"id": "a", "base": "a.jpg", "output": "{x}.jpg"}"#)
    #expect(job.output == "{x}.jpg" && job.photos == nil)
  }

  @Test func aStampPlacedInThePhotosTermsIsDecoded() throws {
    let job = try decoded(
      #"{"base": "b.jpg", "stamps": [{"id": "s", "image": "s.png", "photoCenter": [0.25, 0.75], "photoWidth": 0.2}]}"#)
    let stamp = try #require(job.stamps.first)
    #expect(stamp.photoCenter == StampPoint(0.25, 0.75) && stamp.photoWidth == 0.2 && stamp.width == nil)
  }
}
