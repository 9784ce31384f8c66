import Foundation

/// The name a value transformer is registered under (Foundation's `NSValueTransformerName`, which Foundation on Linux
/// lacks).
public struct NSValueTransformerName: RawRepresentable, Hashable, Sendable, ExpressibleByStringLiteral {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public init(_ rawValue: String) { self.rawValue = rawValue }
    public init(stringLiteral value: String) { self.rawValue = value }

    /// `NSSecureUnarchiveFromDataTransformer`: unarchives `Data` into the allowed Foundation classes, and archives back.
    public static let secureUnarchiveFromDataTransformerName = NSValueTransformerName("NSSecureUnarchiveFromData")
    /// The keyed unarchiver without a class list (Core Data's transformer for a transformable attribute that names none).
    public static let keyedUnarchiveFromDataTransformerName = NSValueTransformerName("NSKeyedUnarchiveFromData")
    /// The pre-keyed unarchiver's name; here the keyed unarchiver, the only archive format there is on Linux.
    public static let unarchiveFromDataTransformerName = NSValueTransformerName("NSUnarchiveFromData")
    /// A boolean `NSNumber` negated (and back).
    public static let negateBooleanTransformerName = NSValueTransformerName("NSNegateBoolean")
    /// `true` for nil (and `NSNull`), `false` otherwise; one way.
    public static let isNilTransformerName = NSValueTransformerName("NSIsNil")
    /// `true` for anything but nil (and `NSNull`); one way.
    public static let isNotNilTransformerName = NSValueTransformerName("NSIsNotNil")
}

/// Foundation's `ValueTransformer`, which Foundation on Linux lacks: converts a value to another form and, when
/// `allowsReverseTransformation()` says so, back. Core Data's transformable attributes store what their model's named
/// transformer makes of the value.
///
/// ```swift
/// final class UppercaseTransformer: ValueTransformer {
///     override class func allowsReverseTransformation() -> Bool { true }
///     override func transformedValue(_ value: Any?) -> Any? { (value as? String).map { Data($0.utf8) } }
///     override func reverseTransformedValue(_ value: Any?) -> Any? { (value as? Data).map { String(decoding: $0, as: UTF8.self) } }
/// }
/// ValueTransformer.setValueTransformer(UppercaseTransformer(), forName: NSValueTransformerName("UppercaseTransformer"))
/// ```
open class ValueTransformer: NSObject {
    /// The registered transformer this one stands for, when made by `init?(forName:)`.
    private var forwardingTarget: ValueTransformer?

    public override init() { super.init() }

    /// The transformer registered under `name`, or nil when there is none. Swift cannot hand back an existing object
    /// from an initializer, so this is a transformer that forwards every call to the registered one
    /// (`ValueTransformer.registered(forName:)` returns the registered object itself).
    public convenience init?(forName name: NSValueTransformerName) {
        guard let registered = Self.registered(forName: name) else { return nil }
        self.init()
        forwardingTarget = registered.forwardingTarget ?? registered
    }

    /// Registers `transformer` under `name` (nil removes the registration); a later registration replaces an earlier.
    open class func setValueTransformer(_ transformer: ValueTransformer?, forName name: NSValueTransformerName) {
        TransformerRegistry.shared.set(transformer, forName: name.rawValue)
    }

    /// The names of the registered transformers, Foundation's built-in ones included.
    open class func valueTransformerNames() -> [NSValueTransformerName] {
        TransformerRegistry.shared.names().map(NSValueTransformerName.init(rawValue:))
    }

    /// The transformer object registered under `name` (Foundation's built-in ones included), or nil.
    public static func registered(forName name: NSValueTransformerName) -> ValueTransformer? {
        TransformerRegistry.shared.transformer(forName: name.rawValue)
    }

    /// The class of the values `transformedValue(_:)` returns (`NSObject` unless overridden).
    open class func transformedValueClass() -> AnyClass { NSObject.self }

    /// Whether `reverseTransformedValue(_:)` may be called (false unless overridden).
    open class func allowsReverseTransformation() -> Bool { false }

    /// `value` transformed; the default returns it unchanged.
    open func transformedValue(_ value: Any?) -> Any? {
        if let forwardingTarget { return forwardingTarget.transformedValue(value) }
        return value
    }

    /// `value` transformed back. The default calls `transformedValue(_:)` when the class allows reverse
    /// transformation, and traps otherwise (Foundation raises).
    open func reverseTransformedValue(_ value: Any?) -> Any? {
        if let forwardingTarget { return forwardingTarget.reverseTransformedValue(value) }
        precondition(type(of: self).allowsReverseTransformation(),
                     "\(type(of: self)) does not allow reverse transformation (override allowsReverseTransformation())")
        return transformedValue(value)
    }

    /// Whether this transformer (or the one it forwards to) allows reverse transformation.
    final var allowsReverse: Bool { type(of: forwardingTarget ?? self).allowsReverseTransformation() }

    /// The registered transformer itself, seen through a forwarding one.
    final var resolved: ValueTransformer { forwardingTarget ?? self }
}

/// The process's registered transformers, by name, behind a lock; Foundation's built-in names are filled in first.
final class TransformerRegistry: @unchecked Sendable {
    static let shared = TransformerRegistry()
    private let lock = NSLock()
    private var transformers: [String: ValueTransformer] = [
        NSValueTransformerName.secureUnarchiveFromDataTransformerName.rawValue: NSSecureUnarchiveFromDataTransformer(),
        NSValueTransformerName.keyedUnarchiveFromDataTransformerName.rawValue: KeyedUnarchiveFromDataTransformer(),
        NSValueTransformerName.unarchiveFromDataTransformerName.rawValue: KeyedUnarchiveFromDataTransformer(),
        NSValueTransformerName.negateBooleanTransformerName.rawValue: NegateBooleanTransformer(),
        NSValueTransformerName.isNilTransformerName.rawValue: IsNilTransformer(negated: false),
        NSValueTransformerName.isNotNilTransformerName.rawValue: IsNilTransformer(negated: true),
    ]

    func set(_ transformer: ValueTransformer?, forName name: String) {
        lock.withLock { transformers[name] = transformer?.resolved }
    }

    func transformer(forName name: String) -> ValueTransformer? {
        lock.withLock { transformers[name] }
    }

    func names() -> [String] {
        lock.withLock { transformers.keys.sorted() }
    }
}

/// `NSNegateBoolean`: a boolean negated, both ways.
final class NegateBooleanTransformer: ValueTransformer {
    override class func allowsReverseTransformation() -> Bool { true }
    override class func transformedValueClass() -> AnyClass { NSNumber.self }
    override func transformedValue(_ value: Any?) -> Any? {
        guard let value else { return nil }
        if let flag = value as? Bool { return NSNumber(value: !flag) }
        return (value as? NSNumber).map { NSNumber(value: !$0.boolValue) }
    }
    override func reverseTransformedValue(_ value: Any?) -> Any? { transformedValue(value) }
}

/// `NSIsNil` and `NSIsNotNil`: whether the value is nil (or `NSNull`), as a boolean number.
final class IsNilTransformer: ValueTransformer {
    private let negated: Bool
    init(negated: Bool) {
        self.negated = negated
        super.init()
    }
    override class func transformedValueClass() -> AnyClass { NSNumber.self }
    override func transformedValue(_ value: Any?) -> Any? {
        let isNil = value == nil || value is NSNull
        return NSNumber(value: isNil != negated)
    }
}
