import StampCore
import Testing

@testable import StampRecord

@Suite("Fingers: the page's pointers and mouse as touches")
struct FingersTests {
  typealias Touch = (id: Int, phase: TouchPhase, location: StampPoint)

  static func same(_ a: [Touch], _ b: [Touch]) -> Bool {
    a.count == b.count && zip(a, b).allSatisfy { $0.id == $1.id && $0.phase == $1.phase && $0.location == $1.location }
  }

  @Test func aShiftDragAddsASecondFingerMirroredAboutWhereTheDragBegan() {
    var fingers = Fingers()
    let down = fingers.touches(for: .mouse(.down, at: StampPoint(100, 100), shift: true))
    #expect(Self.same(down, [(0, .began, StampPoint(100, 100)), (1, .began, StampPoint(100, 100))]))
    // Moved by (10, 20): the mirror moves by (-10, -20).
    let move = fingers.touches(for: .mouse(.move, at: StampPoint(110, 120), shift: true))
    #expect(Self.same(move, [(0, .moved, StampPoint(110, 120)), (1, .moved, StampPoint(90, 80))]))
    // Shift let go: the second finger lifts where it was.
    let plain = fingers.touches(for: .mouse(.move, at: StampPoint(112, 120), shift: false))
    #expect(Self.same(plain, [(0, .moved, StampPoint(112, 120)), (1, .ended, StampPoint(90, 80))]))
    // Shift again, further on: it lands at the new mirror, (2 x 100 - 130, 2 x 100 - 100).
    let again = fingers.touches(for: .mouse(.move, at: StampPoint(130, 100), shift: true))
    #expect(Self.same(again, [(0, .moved, StampPoint(130, 100)), (1, .began, StampPoint(70, 100))]))
    let up = fingers.touches(for: .mouse(.up, at: StampPoint(130, 100), shift: true))
    #expect(Self.same(up, [(0, .ended, StampPoint(130, 100)), (1, .ended, StampPoint(70, 100))]))
    #expect(fingers.live.isEmpty)
  }

  @Test func touchPointersGetTheSmallestFreeIdsAndUnknownOnesAreDropped() {
    var fingers = Fingers()
    let p = StampPoint(5, 5)
    #expect(Self.same(fingers.touches(for: .touch(pointer: 41, phase: .began, at: p)), [(0, .began, p)]))
    #expect(Self.same(fingers.touches(for: .touch(pointer: 97, phase: .began, at: p)), [(1, .began, p)]))
    #expect(Self.same(fingers.touches(for: .touch(pointer: 41, phase: .ended, at: p)), [(0, .ended, p)]))
    #expect(Self.same(fingers.touches(for: .touch(pointer: 12, phase: .began, at: p)), [(0, .began, p)]))
    // A pointer whose landing was never seen, and a second landing of a live one, make no touch.
    #expect(fingers.touches(for: .touch(pointer: 5, phase: .moved, at: p)).isEmpty)
    #expect(fingers.touches(for: .touch(pointer: 97, phase: .began, at: p)).isEmpty)
    #expect(fingers.touches(for: .mouse(.move, at: p, shift: false)).isEmpty)
    // Taken away all at once: both live fingers cancelled, and pointer 97 is forgotten.
    #expect(Self.same(fingers.touches(for: .cancelAll), [(0, .cancelled, p), (1, .cancelled, p)]))
    #expect(fingers.live.isEmpty && fingers.touches(for: .touch(pointer: 97, phase: .moved, at: p)).isEmpty)
  }
}
