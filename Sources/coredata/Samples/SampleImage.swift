import Foundation

/// Small deterministic pictures for the samples' binary attributes: binary PPM (`P6`) files, which any image
/// viewer opens and whose size is exactly known, so a sample can choose which ones cross the 128 KiB
/// external-storage threshold.
enum SampleImage {
    /// The size at which the SQLite store writes an external-storage value to the support folder.
    static let externalThreshold = 128 * 1024

    /// A `width`×`height` picture: a diagonal gradient between two random colours with a few random bands.
    static func ppm(width: Int, height: Int, random: inout SampleRandom) -> Data {
        let from = (random.int(in: 0...255), random.int(in: 0...255), random.int(in: 0...255))
        let to = (random.int(in: 0...255), random.int(in: 0...255), random.int(in: 0...255))
        let bandEvery = random.int(in: 6...24)
        var bytes = [UInt8]("P6\n\(width) \(height)\n255\n".utf8)
        bytes.reserveCapacity(bytes.count + width * height * 3)
        let span = max(1, width + height - 2)
        for y in 0..<height {
            for x in 0..<width {
                let t = Double(x + y) / Double(span)
                let shade = (x / bandEvery + y / bandEvery) % 2 == 0 ? 1.0 : 0.85
                for (a, b) in [(from.0, to.0), (from.1, to.1), (from.2, to.2)] {
                    bytes.append(UInt8(max(0, min(255, (Double(a) + (Double(b) - Double(a)) * t) * shade))))
                }
            }
        }
        return Data(bytes)
    }

    /// A picture just over the external-storage threshold (256×171 pixels, 131,343 bytes), the smallest size
    /// that exercises the support folder, which keeps the committed samples small.
    static func external(random: inout SampleRandom) -> Data {
        ppm(width: 256, height: 171, random: &random)
    }
}
