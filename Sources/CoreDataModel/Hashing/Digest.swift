import CLibCrypto

/// SHA-2 digests through libcrypto (Foundation on Linux has none).
package enum Digest {
    package static func sha256(_ bytes: [UInt8]) -> [UInt8] {
        var output = [UInt8](repeating: 0, count: Int(SHA256_DIGEST_LENGTH))
        bytes.withUnsafeBufferPointer { input in
            output.withUnsafeMutableBufferPointer { out in
                ocd_sha256(input.baseAddress, input.count, out.baseAddress)
            }
        }
        return output
    }

    package static func sha512(_ bytes: [UInt8]) -> [UInt8] {
        var output = [UInt8](repeating: 0, count: Int(SHA512_DIGEST_LENGTH))
        bytes.withUnsafeBufferPointer { input in
            output.withUnsafeMutableBufferPointer { out in
                ocd_sha512(input.baseAddress, input.count, out.baseAddress)
            }
        }
        return output
    }
}
