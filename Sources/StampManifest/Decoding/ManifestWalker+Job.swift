import StampCore

/// A job as decoded, valid or not: the registry still checks an invalid job's id and outputs against the others.
struct DecodedJob {
  var entry: JobEntry
  var valid: Bool
  /// The values the registry's messages point at.
  var idValue: JSONValue?
  var outputValue: JSONValue?
  var viewOutputValue: JSONValue?
}

extension ManifestWalker {
  /// Decodes one job; nil only when it is not even an object.
  mutating func job(_ v: JSONValue, index: Int, path: String, defaults: JobDefaults) -> DecodedJob? {
    let before = diagnostics.count
    guard let m = members(v, Shapes.job, path) else { return nil }
    let id = identifier(m, "id", path) ?? String(index)
    let base = inputPath(m, "base", path) ?? ""
    let photos = value(m, "photos").flatMap { self.photos($0, child(path, "photos")) }
    let many = value(m, "photos") != nil
    var output = outputPath(m, "output", path)
    if many {
      // A job over many photos writes one file a photo: its outputs are templates.
      for key in ["output", "viewOutput"] {
        guard let given = value(m, key), case .string(let text) = given.kind else { continue }
        if let problem = OutputTemplate.problem(in: text) { report(given, child(path, key), problem) }
      }
      if value(m, "output") == nil { output = OutputTemplate.defaultOutput }
    } else if value(m, "output") == nil {
      let fallback = id + ".jpg"
      if let refusal = PathRules.refusal(ofOutput: fallback, maxComponents: limits.maxOutputComponents) {
        report(value(m, "id") ?? v, child(path, "id"), "the default output \"\(fallback)\" \(refusal); give an output")
      } else {
        output = PathRules.normalize(fallback)
      }
    }
    let viewOutput = outputPath(m, "viewOutput", path)
    var view = defaults.view
    if let given = value(m, "view") { view = self.view(given, child(path, "view")) }
    if let given = value(m, "viewOutput"), viewOutput != nil, let view {
      // What the screen showed is drawn at the view's size times its screen scale: bounded like a photo, since
      // nothing else stops a 1000000-point view at scale 16 from running for days.
      let (w, h) = ((view.size.width * view.screenScale).rounded(), (view.size.height * view.screenScale).rounded())
      if w * h > Double(limits.maxViewPixels) {
        report(
          given, child(path, "viewOutput"),
          "the view would be \(format(w)) x \(format(h)) pixels (its size times its screenScale), over the limit "
            + "of \(limits.maxViewPixels)")
      }
    }
    var settings = GestureSettings()
    defaults.settings.apply(to: &settings)
    if let given = value(m, "settings") { self.settings(given, child(path, "settings")).apply(to: &settings) }
    var stamps: [StampEntry] = []
    var stampIDs = Set<String>()
    if let given = value(m, "stamps") { stamps = self.stamps(given, child(path, "stamps"), ids: &stampIDs) }
    var gestures: [GestureItem] = []
    if let given = value(m, "gestures") { gestures = self.gestures(given, child(path, "gestures"), stampIDs: stampIDs) }
    var entry = JobEntry(
      id: id, base: base, output: output ?? "", viewOutput: viewOutput, view: view?.size, stamps: stamps,
      gestures: gestures, settings: settings, index: index, line: v.line + lineOffset)
    entry.screenScale = view?.screenScale ?? 1
    entry.overlay = bool(m, "overlay", path) ?? false
    entry.photos = photos
    return DecodedJob(
      entry: entry, valid: diagnostics.count == before, idValue: value(m, "id"), outputValue: value(m, "output"),
      viewOutputValue: value(m, "viewOutput"))
  }

  /// The stamps array; `ids` collects every id given, even on stamps that fail, so gestures are not misreported.
  mutating func stamps(_ v: JSONValue, _ path: String, ids: inout Set<String>) -> [StampEntry] {
    guard case .array(let items) = v.kind else {
      report(v, path, "expected an array, found \(v.typeName)")
      return []
    }
    guard items.count <= limits.maxStamps else {
      report(v, path, "\(items.count) stamps, more than the limit of \(limits.maxStamps)")
      return []
    }
    var stamps: [StampEntry] = []
    for (i, item) in items.enumerated() {
      let itemPath = element(path, i)
      guard let m = members(item, Shapes.stamp, itemPath) else { continue }
      let id = identifier(m, "id", itemPath)
      if let id, !ids.insert(id).inserted {
        report(value(m, "id") ?? item, child(itemPath, "id"), "duplicate stamp id \"\(id)\"")
      }
      let image = inputPath(m, "image", itemPath)
      let center = point(m, "center", itemPath)
      let photoCenter = point(m, "photoCenter", itemPath)
      let width = number(m, Shapes.stamp, "width", itemPath)
      let photoWidth = number(m, Shapes.stamp, "photoWidth", itemPath)
      if let given = value(m, "photoWidth"), value(m, "width") != nil {
        report(given, child(itemPath, "photoWidth"), "give \"width\" or \"photoWidth\", not both")
      }
      let scale = number(m, Shapes.stamp, "scale", itemPath) ?? 1
      let rotation = number(m, Shapes.stamp, "rotation", itemPath) ?? 0
      let locked = bool(m, "locked", itemPath) ?? false
      guard let id, let image, center != nil || photoCenter != nil else { continue }
      var stamp = StampEntry(
        id: id, image: image, center: center ?? .zero, width: width, scale: scale, rotation: rotation, locked: locked)
      (stamp.photoCenter, stamp.photoWidth) = (photoCenter, photoWidth)
      stamps.append(stamp)
    }
    return stamps
  }

  /// A job's `photos`: a glob, `{"glob": ..., "ignoreCase": ...}` or `{"list": ...}`.
  mutating func photos(_ v: JSONValue, _ path: String) -> PhotoSet? {
    switch v.kind {
    case .string:
      guard let glob = string(v, path), compiles(glob, v, path) else { return nil }
      return PhotoSet(.glob(glob, ignoreCase: false), folder: folder)
    case .object:
      guard let m = members(v, Shapes.photos, path) else { return nil }
      let ignoreCase = bool(m, "ignoreCase", path)
      if let glob = string(m, "glob", path) {
        guard let given = value(m, "glob"), compiles(glob, given, child(path, "glob")) else { return nil }
        return PhotoSet(.glob(glob, ignoreCase: ignoreCase ?? false), folder: folder)
      }
      guard let list = string(m, "list", path) else { return nil }
      if let given = value(m, "ignoreCase") {
        report(given, child(path, "ignoreCase"), "applies to a glob; a list names its photos exactly")
      }
      return PhotoSet(.list(list), folder: folder)
    default:
      report(v, path, "expected a glob (a string) or an object with \"glob\" or \"list\", found \(v.typeName)")
      return nil
    }
  }

  /// Whether `glob` is a photo glob; reports why not at `v`.
  private mutating func compiles(_ glob: String, _ v: JSONValue, _ path: String) -> Bool {
    do {
      _ = try PhotoGlob(glob)
      return true
    } catch {
      report(v, path, "\"\(glob)\" is not a photo glob: \(error.message)")
      return false
    }
  }

  /// The manifest's `defaults`.
  mutating func defaults(_ v: JSONValue, _ path: String) -> JobDefaults {
    var defaults = JobDefaults()
    guard let m = members(v, Shapes.defaults, path) else { return defaults }
    if let given = value(m, "view") { defaults.view = view(given, child(path, "view")) }
    if let given = value(m, "settings") { defaults.settings = settings(given, child(path, "settings")) }
    return defaults
  }
}
