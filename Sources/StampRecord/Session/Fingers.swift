import StampCore

/// One thing the page reports in a frame: a pointer of a touch screen, or the mouse.
package enum PageInput: Sendable, Equatable {
  /// A touch screen's pointer (`pointerId`) landing, moving, lifting or taken away, at a view point.
  case touch(pointer: Int, phase: TouchPhase, at: StampPoint)
  /// The mouse pressed, moved or released at a view point, with Shift held or not.
  case mouse(MousePhase, at: StampPoint, shift: Bool)
  /// Every finger taken away (a page opened again while the server thought fingers were down).
  case cancelAll

  package enum MousePhase: String, Sendable {
    case down, move, up
  }

  /// Whether the input lifts or takes away fingers (and lands or moves none).
  var ends: Bool {
    switch self {
    case .touch(_, let phase, _): phase == .ended || phase == .cancelled
    case .mouse(let phase, _, _): phase == .up
    case .cancelAll: true
    }
  }
}

/// The fingers down now, and how the page's pointers and mouse become them: touch ids are the smallest free
/// numbers, so that a recorded item reads 0, 1, 2. The mouse is one finger; with Shift held it is two, the second
/// mirrored about the point where the drag began (as Hammer.js's touch emulator does), so a mouse can pinch and turn.
struct Fingers: Sendable {
  /// Live touch ids and where each is, in view points.
  private(set) var live: [Int: StampPoint] = [:]
  private var pointers: [Int: Int] = [:]
  /// The mouse's drag: where it began and its fingers' ids (the second while Shift is held).
  private var mouse: (start: StampPoint, first: Int, second: Int?)?

  /// The touches `input` makes, the fingers updated; none for a pointer it does not know (its landing was lost).
  mutating func touches(for input: PageInput) -> [(id: Int, phase: TouchPhase, location: StampPoint)] {
    switch input {
    case .touch(let pointer, let phase, let p):
      if phase == .began {
        guard pointers[pointer] == nil else { return [] }
        let id = land(at: p)
        pointers[pointer] = id
        return [(id, .began, p)]
      }
      guard let id = pointers[pointer] else { return [] }
      if phase == .ended || phase == .cancelled {
        pointers[pointer] = nil
        live[id] = nil
      } else {
        live[id] = p
      }
      return [(id, phase == .stationary ? .moved : phase, p)]
    case .mouse(let phase, let p, let shift):
      return mouseTouches(phase, at: p, shift: shift)
    case .cancelAll:
      defer { self = Fingers() }
      return live.sorted { $0.key < $1.key }.map { ($0.key, .cancelled, $0.value) }
    }
  }

  private mutating func mouseTouches(_ phase: PageInput.MousePhase, at p: StampPoint, shift: Bool)
    -> [(id: Int, phase: TouchPhase, location: StampPoint)]
  {
    switch phase {
    case .down:
      guard mouse == nil else { return [] }
      let first = land(at: p)
      mouse = (p, first, nil)
      return [(first, .began, p)] + mirror(p, shift: shift)
    case .move:
      guard let drag = mouse else { return [] }
      live[drag.first] = p
      return [(drag.first, .moved, p)] + mirror(p, shift: shift)
    case .up:
      guard let drag = mouse else { return [] }
      var out: [(id: Int, phase: TouchPhase, location: StampPoint)] = [(drag.first, .ended, p)]
      if let second = drag.second, let q = live[second] { out.append((second, .ended, q)) }
      live[drag.first] = nil
      drag.second.map { live[$0] = nil }
      mouse = nil
      return out
    }
  }

  /// The second finger of a Shift+drag at the mirror of `p` about the drag's start: landing when Shift is pressed,
  /// following while it is held, lifting when it is let go.
  private mutating func mirror(_ p: StampPoint, shift: Bool) -> [(id: Int, phase: TouchPhase, location: StampPoint)] {
    guard var drag = mouse else { return [] }
    let q = StampPoint(2 * drag.start.x - p.x, 2 * drag.start.y - p.y)
    defer { mouse = drag }
    switch (shift, drag.second) {
    case (true, nil):
      let id = land(at: q)
      drag.second = id
      return [(id, .began, q)]
    case (true, let id?):
      live[id] = q
      return [(id, .moved, q)]
    case (false, let id?):
      let last = live[id] ?? q
      live[id] = nil
      drag.second = nil
      return [(id, .ended, last)]
    case (false, nil):
      return []
    }
  }

  /// A new finger at `p`: the smallest id no live finger has.
  private mutating func land(at p: StampPoint) -> Int {
    var id = 0
    while live[id] != nil { id += 1 }
    live[id] = p
    return id
  }
}
