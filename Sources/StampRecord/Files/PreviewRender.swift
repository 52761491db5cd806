import Foundation
import StampBatch
import StampFiles
import StampManifest

/// The page's "Render": the recorded job rendered by the batch's own renderer (`BatchRunner`, as `stampcam render`
/// runs it) into a temporary folder, its output and view output read back, and the folder removed.
package struct PreviewRender: Sendable {
  /// The rendered output, and the view output when the job has one.
  package var output: JobImages.Image
  package var view: JobImages.Image?

  /// Renders `job` at full resolution under `inputs` and `maxPixels`.
  ///
  /// - Throws: `RecordError.input` with the renderer's message when the job fails.
  package init(_ job: JobEntry, maxPixels: Int, inputs: InputPolicy) throws(RecordError) {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("stampcam-render-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: folder) }
    do {
      var options = BatchOptions(outputFolder: folder.path, concurrency: 1, maxPixels: maxPixels)
      options.inputs = inputs
      let outcomes = try BatchRunner(options: options).run([job])
      guard let outcome = outcomes.first, outcome.status == .ok else {
        throw RecordError.input(outcomes.first?.error ?? "the job was not rendered")
      }
      func read(_ name: String) throws -> JobImages.Image {
        let bytes = Array(try Data(contentsOf: folder.appendingPathComponent(name)))
        return JobImages.Image(bytes: bytes, type: JobImages.type(of: bytes))
      }
      output = try read(job.output)
      view = try job.viewOutput.map(read)
    } catch let error as RecordError {
      throw error
    } catch {
      throw .input("\(error)")
    }
  }
}
