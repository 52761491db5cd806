import CVipsShim

extension Renderer {
  /// Gives the memory freed by finished jobs back to the system. A batch calls it after each job: a large photo's
  /// freed buffers would otherwise stay resident, cut up by the smaller allocations of the jobs after it, and a
  /// batch of photos of mixed sizes would hold more than its largest job alone.
  public static func returnFreeMemory() {
    scv_trim_heap()
  }
}
