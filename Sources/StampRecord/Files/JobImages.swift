import Foundation
import StampBatch
import StampCore
import StampFiles
import StampManifest
import StampSystem

/// The job's photo and stamp images, read once when the recorder starts, with their sizes: the only files the
/// page can fetch, by index (`/photo`, `/stamps/0`...), so no path from a request ever reaches the file system.
package struct JobImages: Sendable {
  /// A file's bytes and the type a browser is told.
  package struct Image: Sendable {
    package var bytes: [UInt8]
    package var type: String
  }

  package var photo: Image
  package var stamps: [Image]
  /// The photo's upright size, and each stamp image's in the job's order, as the batch measures them (by place, not
  /// by name: `é.png` in NFC and in NFD are two files).
  package var photoSize: StampSize
  package var stampSizes: [StampSize]
  /// The files read, the photo's first, as the job names them.
  package var paths: [String]
  /// The input policy they were read under.
  let inputs: InputPolicy

  /// Reads and measures the images of `job` under `inputs` (its root and loaders) and `maxPixels`, as render does.
  ///
  /// - Throws: `RecordError.input` naming the file that cannot be read or measured.
  package init(of job: JobEntry, maxPixels: Int, inputs: InputPolicy) throws(RecordError) {
    func read(_ path: String) throws(RecordError) -> Image {
      do {
        let file = try InputFile.open(path, root: inputs.root)
        let bytes: [UInt8]
        do throws(Errno) {
          bytes = try file.descriptor.readToEnd()
        } catch {
          throw FileError.unreadable(path: path, message: error.description)
        }
        return Image(bytes: bytes, type: Self.type(of: bytes))
      } catch {
        throw .input("\(error)")
      }
    }
    func size(_ path: String) throws(RecordError) -> StampSize {
      do {
        return try JobCheck.headerSize(of: path, maxPixels: maxPixels, inputs: inputs)
      } catch {
        throw .input("\(error)")
      }
    }
    self.inputs = inputs
    paths = [job.base] + job.stamps.map(\.image)
    photo = try read(job.base)
    photoSize = try size(job.base)
    stamps = []
    stampSizes = []
    for stamp in job.stamps {
      stamps.append(try read(stamp.image))
      stampSizes.append(try size(stamp.image))
    }
  }

  /// The files whose bytes are no longer those read when the recorder started (edited, replaced, or gone since),
  /// in the job's order: what the page showed is not what a render would draw from them now.
  package func changedFiles() -> [String] {
    zip(paths, [photo] + stamps).compactMap { path, image in
      guard let file = try? InputFile.open(path, root: inputs.root) else { return path }
      guard let now = try? file.descriptor.readToEnd() else { return path }
      return now == image.bytes ? nil : path
    }
  }

  /// The media type of an image from its first bytes (browsers show JPEG, PNG, WebP and GIF).
  static func type(of bytes: [UInt8]) -> String {
    if bytes.starts(with: [0xFF, 0xD8, 0xFF]) { return "image/jpeg" }
    if bytes.starts(with: [0x89, 0x50, 0x4E, 0x47]) { return "image/png" }
    if bytes.starts(with: Array("GIF8".utf8)) { return "image/gif" }
    if bytes.count >= 12, bytes.starts(with: Array("RIFF".utf8)), Array(bytes[8..<12]) == Array("WEBP".utf8) {
      return "image/webp"
    }
    return "application/octet-stream"
  }
}
