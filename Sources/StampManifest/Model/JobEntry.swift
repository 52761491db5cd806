import StampCore

/// One job of a manifest, decoded, validated and merged with the manifest's defaults.
public struct JobEntry: Sendable, Hashable {
  /// Unique within the manifest; the job's index (from 0) when the manifest gives none.
  public var id: String
  /// The base photo's path, resolved against the manifest's folder.
  public var base: String
  /// The output's path relative to `--out`, normalized (no `.`, no `..`, not absolute); default `<id>.jpg`.
  public var output: String
  /// Where to write what the screen showed at the end, relative to `--out`, if wanted.
  public var viewOutput: String?
  /// The screen the gestures were made on; nil means the image itself.
  public var view: StampSize?
  /// The stamps in drawing order (later ones on top).
  public var stamps: [StampEntry]
  /// The gesture script.
  public var gestures: [GestureItem]
  /// Pixels per point of the screen (`view.screenScale`), for `viewOutput`; 1 when not given.
  public var screenScale: Double = 1
  /// Also write a picture of what happened over a copy of the output (`overlay`).
  public var overlay = false
  /// The design's defaults, overridden by the manifest's defaults, overridden by the job's settings.
  public var settings: GestureSettings
  /// For a job over many photos (`photos`), where its photos come from; nil for a job of one photo. Such a job is
  /// a template: `base` is empty, `output` and `viewOutput` hold placeholders, and `PhotoExpansion` makes one job
  /// of it for each photo.
  public var photos: PhotoSet?
  /// For a job made from a job over many photos, its photo's path relative to the photos' root (the glob's fixed
  /// part or the list's folder); its id is the template's id, `/`, and this path.
  public var photo: String?
  /// For a job made from a glob's walk: its photo was found in a folder, not named by anyone, so a symbolic link
  /// there is not opened through unless the input root holds its target.
  public var photoFoundByWalk = false
  /// The job's index in the manifest, from 0 (a job made from a job over many photos has its template's).
  public var index: Int
  /// The job's place among every job the manifest makes, from 0, each photo of a job over many photos counted:
  /// what `--shard` splits (`position`). Nil, meaning `index`, until `PhotoExpansion` counts the jobs.
  public var ordinal: Int?

  /// The job's place among every job the manifest makes: `ordinal`, or `index` when no job was counted.
  public var position: Int { ordinal ?? index }
  /// The 1-based line where the job starts in the manifest.
  public var line: Int

  /// Creates a job entry.
  public init(
    id: String, base: String, output: String, viewOutput: String? = nil, view: StampSize? = nil,
    stamps: [StampEntry] = [], gestures: [GestureItem] = [], settings: GestureSettings = GestureSettings(),
    index: Int = 0,
    line: Int = 1
  ) {
    self.id = id
    self.base = base
    self.output = output
    self.viewOutput = viewOutput
    self.view = view
    self.stamps = stamps
    self.gestures = gestures
    self.settings = settings
    self.index = index
    self.line = line
  }
}
