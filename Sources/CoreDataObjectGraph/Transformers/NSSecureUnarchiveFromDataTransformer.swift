import Foundation

/// Foundation's `NSSecureUnarchiveFromDataTransformer`: `transformedValue(_:)` unarchives a keyed archive (`Data`) into
/// its object, refusing classes outside `allowedTopLevelClasses`; `reverseTransformedValue(_:)` archives an object of
/// those classes. Core Data's transformable attributes use it (and its subclasses) in reverse: the value is archived
/// for the store and unarchived when read, in `NSKeyedArchiver`'s format, so the bytes are those Apple's platforms
/// write and read.
///
/// Archives of the plain Foundation classes (arrays, dictionaries, sets, strings, numbers, dates, data, URLs, UUIDs,
/// `NSNull`) are read and written here and come back as Swift values (`[Any]`, `[String: Any]`, `Set<AnyHashable>`,
/// `String`, `NSNumber`, `Date`, `Data`, `URL`, `UUID`), which cast as Apple's bridged objects do (`as? [String]`).
/// Objects of other classes (`NSSecureCoding` classes of the program, listed in a subclass's
/// `allowedTopLevelClasses`) go through Foundation's `NSKeyedArchiver` and `NSKeyedUnarchiver`.
///
/// ```swift
/// final class ColorTransformer: NSSecureUnarchiveFromDataTransformer {
///     override class var allowedTopLevelClasses: [AnyClass] { [Color.self] }
/// }
/// ValueTransformer.setValueTransformer(ColorTransformer(), forName: NSValueTransformerName("ColorTransformer"))
/// ```
open class NSSecureUnarchiveFromDataTransformer: ValueTransformer {
    /// The classes an archive's objects may be: Foundation's default list; subclasses return their own.
    open class var allowedTopLevelClasses: [AnyClass] {
        [NSArray.self, NSDictionary.self, NSSet.self, NSString.self, NSNumber.self, NSDate.self, NSData.self,
         NSURL.self, NSUUID.self, NSNull.self]
    }

    open override class func allowsReverseTransformation() -> Bool { true }
    open override class func transformedValueClass() -> AnyClass { NSData.self }

    /// Whether only `allowedTopLevelClasses` may be read and written (false for the keyed unarchiver Core Data uses
    /// when a transformable attribute names no transformer).
    var requiresSecureCoding: Bool { true }

    /// The object archived in `value` (`Data`), or nil when `value` is nil, not data, or an archive this transformer
    /// must not or cannot read (`unarchivedValue(from:)` says why).
    open override func transformedValue(_ value: Any?) -> Any? {
        guard let data = value as? Data else { return nil }
        return try? unarchivedValue(from: data)
    }

    /// `value` archived as `Data`, or nil when it is nil or of a class this transformer must not or cannot archive
    /// (`archivedData(of:)` says why).
    open override func reverseTransformedValue(_ value: Any?) -> Any? {
        guard let value else { return nil }
        return try? archivedData(of: value)
    }

    /// The object archived in `data`; throws, naming the reason, for bytes that are no keyed archive and for classes
    /// outside `allowedTopLevelClasses` (or, for a class of the program, one Foundation cannot find).
    public final func unarchivedValue(from data: Data) throws -> Any? {
        try KeyedArchiveValueReader(allowedClasses: type(of: self).allowedTopLevelClasses,
                                    requiresSecureCoding: requiresSecureCoding).value(in: data)
    }

    /// `value` as a keyed archive; throws, naming the type, for a value that is not of an allowed class (or not
    /// `NSCoding`).
    public final func archivedData(of value: Any) throws -> Data {
        try KeyedArchiveValueWriter(allowedClasses: type(of: self).allowedTopLevelClasses,
                                    requiresSecureCoding: requiresSecureCoding).archive(value)
    }
}

/// Core Data's transformer for a transformable attribute that names none (`NSKeyedUnarchiveFromData`): any class the
/// program defines may be read, not only the allowed ones.
final class KeyedUnarchiveFromDataTransformer: NSSecureUnarchiveFromDataTransformer {
    override var requiresSecureCoding: Bool { false }
}
