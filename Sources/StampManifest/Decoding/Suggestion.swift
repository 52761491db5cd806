/// Finds the known key a mistyped one most likely meant.
enum Suggestion {
  /// The candidate closest to `word` (ignoring case) when it is close enough to be a typo: a change of case only for
  /// words of one or two letters, one edit up to four letters, two beyond; a swap of neighbours counts as one
  /// (`centre` -> `center`).
  static func closest(to word: String, among candidates: [String]) -> String? {
    let lower = Array(word.lowercased().utf8)
    guard lower.count <= 64 else { return nil }
    let allowed = lower.count >= 5 ? 2 : lower.count >= 3 ? 1 : 0
    var best: (name: String, distance: Int)?
    for candidate in candidates {
      let d = distance(lower, Array(candidate.lowercased().utf8))
      if d <= allowed && d < (best?.distance ?? .max) { best = (candidate, d) }
    }
    return best?.name
  }

  /// Optimal string alignment distance: insertions, deletions, substitutions and adjacent swaps.
  static func distance(_ a: [UInt8], _ b: [UInt8]) -> Int {
    if a.isEmpty { return b.count }
    if b.isEmpty { return a.count }
    let width = b.count + 1
    var rows = [[Int]](repeating: [Int](repeating: 0, count: width), count: a.count + 1)
    for j in 0...b.count { rows[0][j] = j }
    for i in 1...a.count {
      rows[i][0] = i
      for j in 1...b.count {
        let cost = a[i - 1] == b[j - 1] ? 0 : 1
        var d = min(rows[i - 1][j] + 1, rows[i][j - 1] + 1, rows[i - 1][j - 1] + cost)
        if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] { d = min(d, rows[i - 2][j - 2] + 1) }
        rows[i][j] = d
      }
    }
    return rows[a.count][b.count]
  }
}
