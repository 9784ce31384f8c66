import CoreDataModel
import CZlib
import Foundation

/// The model Core Data caches inside a store (`Z_MODELCACHE.Z_CONTENT`): a raw DEFLATE stream of the compiled
/// model archive (store format reference §2.3).
public enum ModelCache {
    /// A cache larger than this once inflated is refused, so a hostile store cannot exhaust memory.
    public static let maximumInflatedSize = 64 << 20

    /// Inflates and decodes a model cache blob.
    public static func model(fromCache blob: [UInt8], file: String) throws(StoreFormatError) -> NSManagedObjectModel {
        let archive = try inflate(blob, file: file)
        do {
            return try CompiledModelReader(file: "\(file) (Z_MODELCACHE)").read(Data(archive))
        } catch {
            throw StoreFormatError(file: file, reason: "its model cache does not decode: \(error.reason)")
        }
    }

    /// Raw DEFLATE (no zlib header) decompression with a size limit.
    public static func inflate(_ input: [UInt8], file: String) throws(StoreFormatError) -> [UInt8] {
        var stream = z_stream()
        guard czlib_inflate_init_raw(&stream) == Z_OK else {
            throw StoreFormatError(file: file, reason: "zlib could not start inflating the model cache")
        }
        defer { inflateEnd(&stream) }
        var output: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        var status: Int32 = Z_OK
        var input = input
        input.withUnsafeMutableBufferPointer { inputBuffer in
            stream.next_in = inputBuffer.baseAddress
            stream.avail_in = uInt(inputBuffer.count)
            while status == Z_OK && output.count <= maximumInflatedSize {
                chunk.withUnsafeMutableBufferPointer { chunkBuffer in
                    stream.next_out = chunkBuffer.baseAddress
                    stream.avail_out = uInt(chunkBuffer.count)
                    status = CZlib.inflate(&stream, Z_NO_FLUSH)
                    output.append(contentsOf: chunkBuffer[0..<(chunkBuffer.count - Int(stream.avail_out))])
                }
                if status == Z_OK && stream.avail_in == 0 && stream.avail_out != 0 { break }
            }
        }
        guard output.count <= maximumInflatedSize else {
            throw StoreFormatError(file: file, reason: "its model cache inflates past \(maximumInflatedSize >> 20) MB")
        }
        guard status == Z_STREAM_END else {
            let reason = status == Z_OK ? "is truncated" : "is not a valid DEFLATE stream (zlib status \(status))"
            throw StoreFormatError(file: file, reason: "its model cache \(reason)")
        }
        return output
    }

    /// Raw DEFLATE compression (no zlib header), as Core Data stores the model cache.
    public static func deflate(_ input: [UInt8]) throws(StoreFormatError) -> [UInt8] {
        var stream = z_stream()
        guard czlib_deflate_init_raw(&stream, Z_BEST_COMPRESSION) == Z_OK else {
            throw StoreFormatError(file: "model cache", reason: "zlib could not start compressing")
        }
        defer { deflateEnd(&stream) }
        var output = [UInt8](repeating: 0, count: Int(deflateBound(&stream, uLong(input.count))) + 16)
        var input = input
        let status = input.withUnsafeMutableBufferPointer { inputBuffer in
            output.withUnsafeMutableBufferPointer { outputBuffer in
                stream.next_in = inputBuffer.baseAddress
                stream.avail_in = uInt(inputBuffer.count)
                stream.next_out = outputBuffer.baseAddress
                stream.avail_out = uInt(outputBuffer.count)
                return CZlib.deflate(&stream, Z_FINISH)
            }
        }
        guard status == Z_STREAM_END else {
            throw StoreFormatError(file: "model cache", reason: "zlib could not compress the model (status \(status))")
        }
        return Array(output.prefix(Int(stream.total_out)))
    }
}
