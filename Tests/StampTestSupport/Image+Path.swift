import StampFiles

@testable import StampRender

extension Image {
  /// Opens a file by path lazily, under the default input policy: only the header is read now (see `InputFile` for
  /// what is refused). The renderer opens its inputs through `InputFile` under the job's policy; tests name paths.
  package static func open(_ path: String, sequential: Bool) throws -> Image {
    try open(InputFile.open(path), sequential: sequential, policy: InputPolicy())
  }
}
