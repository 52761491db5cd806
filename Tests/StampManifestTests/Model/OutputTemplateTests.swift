import Testing

@testable import StampManifest

struct OutputTemplateTests {
  struct Case: CustomStringConvertible, Sendable {
    let template: String
    let photo: String
    let index: Int
    let expected: String
    var description: String { "\(template) <- \(photo)" }
  }

  @Test(arguments: [
    Case(
      template: "stamped/{dir}/{stem}.jpg", photo: "2024/trip/a.b.JPG", index: 3, expected: "stamped/2024/trip/a.b.jpg"),
    Case(template: "{dir}/{stem}.{ext}", photo: "x/p.png", index: 0, expected: "x/p.png"),
    Case(template: "{name}.png", photo: "x/y/p.jpeg", index: 0, expected: "p.jpeg.png"),
    Case(template: "{index}-{stem}.jpg", photo: "p.jpg", index: 41, expected: "41-p.jpg"),
    // At the root {dir} is empty: the doubled slash is the decoder's to normalize, as any output's.
    Case(template: "s/{dir}/{stem}.jpg", photo: "p.jpg", index: 0, expected: "s//p.jpg"),
    // A name that starts with its only dot has no extension, as a hidden file's.
    Case(template: "{stem}[{ext}].jpg", photo: ".hidden", index: 0, expected: ".hidden[].jpg"),
    Case(template: "{stem}[{ext}].jpg", photo: "noext", index: 0, expected: "noext[].jpg"),
    Case(template: "{{{stem}}}.jpg", photo: "p.jpg", index: 0, expected: "{p}.jpg"),
    // Bytes, not characters: an e and a combining accent after the dot stay the extension's.
    Case(template: "{stem}_{ext}.jpg", photo: "a.e\u{301}", index: 0, expected: "a_e\u{301}.jpg"),
  ])
  func placeholdersAreFilledFromThePhotosPath(_ c: Case) {
    #expect(OutputTemplate.fill(c.template, photo: c.photo, index: c.index) == c.expected)
    #expect(OutputTemplate.problem(in: c.template) == nil)
  }

  @Test(arguments: [
    (
      "{dir}/out.jpg",
      "\"{dir}/out.jpg\" gives every photo of a folder the same file: use {stem}, {name} or {index} in it"
    ),
    ("same.jpg", "\"same.jpg\" gives every photo of a folder the same file: use {stem}, {name} or {index} in it"),
    (
      "{stme}.jpg",
      "\"{stme}.jpg\": unknown placeholder {stme} (expected one of: {dir}, {stem}, {ext}, {name}, {index})"
    ),
    ("{stem.jpg", "\"{stem.jpg\": a '{' with no '}' after it (write '{{' for one)"),
    ("{stem}}.jpg", "\"{stem}}.jpg\": a '}' with no '{' before it (write '}}' for one)"),
  ])
  func aTemplateThatCannotWorkIsRefusedInWords(_ template: String, _ message: String) {
    #expect(OutputTemplate.problem(in: template) == message)
  }
}
