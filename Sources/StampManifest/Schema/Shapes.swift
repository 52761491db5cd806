import StampCore

/// Every object a version-1 manifest may contain, with its keys: the one table behind the decoder and the schema.
enum Shapes {
  static let view = Shape(
    "view", "The screen the gestures were made on, in points.",
    [
      Field("width", .number(.viewSide), required: true, "Width in points (at least 16)."),
      Field("height", .number(.viewSide), required: true, "Height in points (at least 16)."),
      Field(
        "screenScale", .number(.screenScale),
        "Pixels per point of the screen, for viewOutput (default 1)."),
    ])

  static let settings = Shape(
    "settings", "Gesture thresholds and output options; a job's keys override the defaults' one by one.",
    [
      Field("scaleRange", .range, "A stamp's scale stays in [min, max] at every step (default [0.5, 2])."),
      Field("zoomRange", .range, "The viewport's zoom range (default [1, 4])."),
      Field("doubleTap", .choice(DoubleTapMode.allCases.map(\.rawValue)), "What a double tap does (default toggle)."),
      Field("zoomStep", .number(NumberBounds(min: 1, minExclusive: false, max: 100)), "Zoom factor (default 1.5)."),
      Field(
        "tapMaxDuration", .number(.duration),
        "Longest tap, down to up, in seconds; exactly this long is still a tap (default 0.5)."),
      Field(
        "tapSlop", .number(.distance),
        "Farthest a tapping finger may move from where it landed, in points; exactly this far is still a tap, "
          + "0 means not moving at all (default 10)."),
      Field(
        "pinchSlop", .number(.distance),
        "Farthest a finger of a two-finger touch may move from where the pair formed before the pair pinches, in "
          + "points; exactly this far still does not, 0 means any motion pinches (default 10)."),
      Field(
        "doubleTapInterval", .number(.interval),
        "Longest pause from a tap's end to the next tap's start in a double tap, in seconds; exactly this long "
          + "still counts (default 0.35)."),
      Field(
        "doubleTapDistance", .number(.distance),
        "Farthest the second tap of a double tap may land from the first, in points; exactly this far still counts "
          + "(default 40)."),
      Field(
        "pinchMoves", .boolean,
        "Whether a pinch on a stamp also moves it by the motion of the fingers' midpoint (true), or keeps its centre "
          + "where it is while it scales and turns (default false)."),
      Field(
        "quality", .integer(NumberBounds(min: 1, minExclusive: false, max: 100)),
        "JPEG, WebP, AVIF, HEIC and JPEG XL quality (90)."),
    ])

  static let defaults = Shape(
    "defaults", "Values every job starts from.",
    [
      Field("view", .object(view), "The view of jobs that give none."),
      Field("settings", .object(settings), "GestureSettings under each job's own."),
    ])

  static let stamp = Shape(
    "stamp", "An image placed on the photo, in view points (image pixels when the job has no view).",
    [
      Field("id", .identifier, required: true, "Unique within the job; gestures name it."),
      Field("image", .string, required: true, "The stamp image, relative to the manifest's folder."),
      Field("center", .point, "Where its centre is."),
      Field(
        "photoCenter", .point,
        "Or where its centre is in the photo's own terms: fractions of the upright photo's width and height "
          + "([0.5, 0.5] is its middle), for a script that fits photos of every shape."),
      Field("width", .number(.length), "Displayed width before scale (default the image's pixel width)."),
      Field("photoWidth", .number(.length), "Or the displayed width as a fraction of the upright photo's width."),
      Field("scale", .number(.factor), "Initial scale (default 1)."),
      Field("rotation", .number(.angle), "Initial rotation in degrees, clockwise (default 0)."),
      Field("locked", .boolean, "A locked stamp ignores gestures (default false)."),
    ], exactlyOneOf: ["center", "photoCenter"])

  static let touch = Shape(
    "touch", "One recorded touch sample.",
    [
      Field("t", .number(NumberBounds(min: 0, minExclusive: false, max: 1e6)), required: true, "Seconds."),
      Field("id", .integer(NumberBounds(min: -9e15, minExclusive: false, max: 9e15)), required: true, "Touch id."),
      Field("phase", .choice(TouchPhase.allCases.map(\.rawValue)), required: true, "The touch's phase."),
      Field("x", .number(.coordinate), required: true, "View x in points."),
      Field("y", .number(.coordinate), required: true, "View y in points."),
    ])

  static let tapAt = Shape(
    "tapAt", "Where a tap lands.", [Field("at", .point, required: true, "A view point.")])

  static let pinch = Shape(
    "pinch", "Two fingers about a stamp's centre or a point, spreading by `scale` and turning by `rotation`.",
    [
      Field(
        "on", .identifier,
        "The stamp whose centre the fingers surround: both on it, each halfway from the centre to the edge as "
          + "displayed (at most 100 points apart)."),
      Field("at", .point, "Or a view point, with the fingers 100 points apart."),
      Field("scale", .number(.factor), "Final over initial finger distance (default 1)."),
      Field("rotation", .number(.angle), "Turn of the finger line in degrees, clockwise (default 0)."),
      Field("duration", .number(.duration), "Seconds (default 0.5)."),
      Field("steps", .integer(.steps), "Move frames (default 30)."),
    ], exactlyOneOf: ["on", "at"])

  static let drag = Shape(
    "drag", "One finger from a stamp's centre or a point, moving by `by`.",
    [
      Field("on", .identifier, "The stamp whose centre the finger starts on."),
      Field("from", .point, "Or a view point."),
      Field("by", .point, required: true, "The finger's whole motion in points."),
      Field("duration", .number(.duration), "Seconds (default 0.5)."),
      Field("steps", .integer(.steps), "Move frames (default 20)."),
    ], exactlyOneOf: ["on", "from"])

  static let gesture = Shape(
    "gesture", "One item of the gesture script: an object with exactly one key.",
    [
      Field("touches", .array(touch), "A recorded trace; t is relative to the item."),
      Field("tap", .object(tapAt), "A single tap."),
      Field("doubleTap", .object(tapAt), "A double tap."),
      Field("twoFingerTap", .object(tapAt), "Two fingers tapping together about a point."),
      Field("pinch", .object(pinch), "A pinch/rotate."),
      Field("drag", .object(drag), "A drag."),
    ], exactlyOneOf: ["touches", "tap", "doubleTap", "twoFingerTap", "pinch", "drag"])

  static let photos = Shape(
    "photos", "The photos of a job over many photos: a glob, or a list file.",
    [
      Field(
        "glob", .string,
        "Relative to the manifest's folder: * and ? within a name, [...] a set of bytes, ** any depth of folders."),
      Field("ignoreCase", .boolean, "Match the glob's ASCII letters in either case (default false)."),
      Field(
        "list", .string,
        "A file listing one photo a line, each relative to the list's folder; - reads standard input."),
    ], exactlyOneOf: ["glob", "list"])

  static let job = Shape(
    "job", "One photo to render, or one script over many photos. In a JSON Lines manifest, each line is one job.",
    [
      Field("id", .identifier, "Unique; default the job's index."),
      Field("base", .string, "The photo, relative to the manifest's folder."),
      Field(
        "photos", .stringOr(photos),
        "Or many photos, each rendered as this job: a glob (\"in/**/*.jpg\") or {\"glob\": ...} or {\"list\": ...}."),
      Field(
        "output", .relativePath,
        "Output path under --out (default <id>.jpg); with photos a template: {dir}, {stem}, {ext}, {name}, {index} "
          + "(default {dir}/{stem}.jpg)."),
      Field(
        "viewOutput", .relativePath,
        "Also write what the screen showed at the end, under --out (with photos, a template as output is)."),
      Field("view", .object(view), "The screen the gestures were made on; without it, image pixels."),
      Field("stamps", .array(stamp), "Stamps in drawing order, later ones on top."),
      Field("gestures", .array(gesture), "Played in order on one clock, 1 s apart."),
      Field("settings", .object(settings), "Overrides the defaults' settings key by key."),
      Field("overlay", .boolean, "Also write <output>.overlay.<ext>: finger paths, gestures, outlines (false)."),
    ], exactlyOneOf: ["base", "photos"])

  static let manifest = Shape(
    "manifest", "A stampcam manifest.",
    [
      Field("version", .constant(1), required: true, "The format version: 1."),
      Field("defaults", .object(defaults), "Values every job starts from."),
      Field("jobs", .array(job), required: true, "The jobs, in order."),
    ])

  /// A JSON Lines manifest's optional first line: `{"version": 1, "defaults": {...}}`.
  static let linesHeader = Shape(
    "linesHeader", "The optional first line of a JSON Lines manifest.",
    [
      Field("version", .constant(1), required: true, "The format version: 1."),
      Field("defaults", .object(defaults), "Values every job starts from."),
    ])

  /// Every shape, in the order the schema lists them.
  static let all: [Shape] = [
    manifest, linesHeader, defaults, job, photos, view, settings, stamp, gesture, touch, tapAt, pinch, drag,
  ]
}
