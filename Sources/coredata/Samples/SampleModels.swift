import Foundation

/// The samples' models, in Xcode's `contents` XML, written for this project. `coredata samples` writes each one
/// beside its store as `<Name>.xcdatamodeld`, so a sample folder is complete wherever it is generated.
enum SampleModels {
    static let recipes = #"""
<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<!-- OpenCoreData's own sample model (written for this project): recipes, chefs, cuisines, ingredients and photos. -->
<model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0" lastSavedToolsVersion="22758" systemVersion="23E224" minimumToolsVersion="Automatic" sourceLanguage="Swift" userDefinedModelVersionIdentifier="1">
    <entity name="Chef" representedClassName="Chef" syncable="YES">
        <attribute name="name" attributeType="String" minValueString="1" maxValueString="80"/>
        <attribute name="email" optional="YES" attributeType="String" regularExpressionString="[^@ ]+@[^@ ]+"/>
        <attribute name="joined" optional="YES" attributeType="Date" usesScalarValueType="NO"/>
        <attribute name="recipeCount" attributeType="Integer 32" defaultValueString="0" usesScalarValueType="YES"/>
        <relationship name="recipes" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="Recipe" inverseName="chef" inverseEntity="Recipe"/>
    </entity>
    <entity name="Cuisine" representedClassName="Cuisine" syncable="YES">
        <attribute name="name" attributeType="String"/>
        <attribute name="region" optional="YES" attributeType="String"/>
        <relationship name="recipes" optional="YES" toMany="YES" deletionRule="Deny" destinationEntity="Recipe" inverseName="cuisine" inverseEntity="Recipe"/>
        <uniquenessConstraints>
            <uniquenessConstraint>
                <constraint value="name"/>
            </uniquenessConstraint>
        </uniquenessConstraints>
    </entity>
    <entity name="Ingredient" representedClassName="Ingredient" syncable="YES">
        <attribute name="name" attributeType="String"/>
        <attribute name="quantity" optional="YES" attributeType="Decimal"/>
        <attribute name="unit" optional="YES" attributeType="String"/>
        <relationship name="recipe" maxCount="1" deletionRule="Nullify" destinationEntity="Recipe" inverseName="ingredients" inverseEntity="Recipe"/>
    </entity>
    <entity name="Photo" representedClassName="Photo" syncable="YES">
        <attribute name="caption" optional="YES" attributeType="String"/>
        <attribute name="imageData" optional="YES" attributeType="Binary" allowsExternalBinaryDataStorage="YES"/>
        <attribute name="takenAt" optional="YES" attributeType="Date" usesScalarValueType="NO"/>
        <relationship name="recipe" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Recipe" inverseName="photo" inverseEntity="Recipe"/>
    </entity>
    <entity name="Recipe" representedClassName="Recipe" syncable="YES">
        <attribute name="created" attributeType="Date" usesScalarValueType="NO"/>
        <attribute name="identifier" attributeType="UUID" usesScalarValueType="NO"/>
        <attribute name="instructions" optional="YES" attributeType="String"/>
        <attribute name="isVegetarian" attributeType="Boolean" defaultValueString="NO" usesScalarValueType="YES"/>
        <attribute name="minutes" attributeType="Integer 16" minValueString="0" maxValueString="1440" defaultValueString="30" usesScalarValueType="YES"/>
        <attribute name="name" attributeType="String"/>
        <attribute name="normalizedName" attributeType="String" elementID="searchName"/>
        <attribute name="rating" optional="YES" attributeType="Double" minValueString="0" maxValueString="5" usesScalarValueType="YES"/>
        <attribute name="servings" attributeType="Integer 16" defaultValueString="2" usesScalarValueType="YES"/>
        <attribute name="source" optional="YES" attributeType="URI"/>
        <attribute name="ingredientCount" optional="YES" attributeType="Integer 64" derived="YES" derivationExpression="ingredients.@count" usesScalarValueType="YES"/>
        <attribute name="isFavorite" optional="YES" transient="YES" attributeType="Boolean" usesScalarValueType="YES"/>
        <relationship name="chef" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Chef" inverseName="recipes" inverseEntity="Chef"/>
        <relationship name="cuisine" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Cuisine" inverseName="recipes" inverseEntity="Cuisine"/>
        <relationship name="ingredients" optional="YES" toMany="YES" deletionRule="Cascade" ordered="YES" destinationEntity="Ingredient" inverseName="recipe" inverseEntity="Ingredient"/>
        <relationship name="photo" optional="YES" maxCount="1" deletionRule="Cascade" destinationEntity="Photo" inverseName="recipe" inverseEntity="Photo"/>
        <relationship name="tags" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="Tag" inverseName="recipes" inverseEntity="Tag"/>
        <fetchIndex name="byNormalizedName">
            <fetchIndexElement property="normalizedName" type="Binary" order="ascending"/>
        </fetchIndex>
    </entity>
    <entity name="Tag" representedClassName="Tag" syncable="YES">
        <attribute name="label" attributeType="String"/>
        <relationship name="recipes" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="Recipe" inverseName="tags" inverseEntity="Recipe"/>
    </entity>
    <configuration name="Default">
        <memberEntity name="Chef"/>
        <memberEntity name="Cuisine"/>
        <memberEntity name="Ingredient"/>
        <memberEntity name="Photo"/>
        <memberEntity name="Recipe"/>
        <memberEntity name="Tag"/>
    </configuration>
</model>
"""#

    static let photos = #"""
<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<!-- OpenCoreData's own sample model (written for this project): photos with labels, timestamps, tags and thumbnails. -->
<model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0" lastSavedToolsVersion="22758" systemVersion="23E224" minimumToolsVersion="Automatic" sourceLanguage="Swift" userDefinedModelVersionIdentifier="1">
    <entity name="Photo" representedClassName="Photo" syncable="YES">
        <attribute name="label" attributeType="String"/>
        <attribute name="normalizedLabel" attributeType="String"/>
        <attribute name="timestamp" attributeType="Date" usesScalarValueType="NO"/>
        <attribute name="pixelWidth" attributeType="Integer 32" defaultValueString="0" usesScalarValueType="YES"/>
        <attribute name="pixelHeight" attributeType="Integer 32" defaultValueString="0" usesScalarValueType="YES"/>
        <attribute name="isFavorite" attributeType="Boolean" defaultValueString="NO" usesScalarValueType="YES"/>
        <attribute name="thumbnail" optional="YES" attributeType="Binary"/>
        <attribute name="fullImage" optional="YES" attributeType="Binary" allowsExternalBinaryDataStorage="YES"/>
        <relationship name="tags" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="Tag" inverseName="photos" inverseEntity="Tag"/>
        <fetchIndex name="byTimestamp">
            <fetchIndexElement property="timestamp" type="Binary" order="ascending"/>
        </fetchIndex>
    </entity>
    <entity name="Tag" representedClassName="Tag" syncable="YES">
        <attribute name="name" attributeType="String"/>
        <relationship name="photos" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="Photo" inverseName="tags" inverseEntity="Photo"/>
    </entity>
    <configuration name="Default">
        <memberEntity name="Photo"/>
        <memberEntity name="Tag"/>
    </configuration>
</model>
"""#

    static let earthquakes = #"""
<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<!-- OpenCoreData's own sample model (written for this project): earthquakes for grouping and aggregates. Quake.region has no inverse on purpose: a region holds up to hundreds of thousands of quakes and is only ever reached from the quake side (GROUP BY region.name). -->
<model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0" lastSavedToolsVersion="22758" systemVersion="23E224" minimumToolsVersion="Automatic" sourceLanguage="Swift" userDefinedModelVersionIdentifier="1">
    <entity name="Quake" representedClassName="Quake" syncable="YES">
        <attribute name="code" attributeType="String"/>
        <attribute name="magnitude" attributeType="Double" minValueString="-2" maxValueString="10" defaultValueString="0.0" usesScalarValueType="YES"/>
        <attribute name="place" attributeType="String"/>
        <attribute name="time" attributeType="Date" usesScalarValueType="NO"/>
        <attribute name="depth" attributeType="Double" defaultValueString="0.0" usesScalarValueType="YES"/>
        <attribute name="latitude" attributeType="Double" minValueString="-90" maxValueString="90" defaultValueString="0.0" usesScalarValueType="YES"/>
        <attribute name="longitude" attributeType="Double" minValueString="-180" maxValueString="180" defaultValueString="0.0" usesScalarValueType="YES"/>
        <relationship name="region" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Region"/>
        <fetchIndex name="byTime">
            <fetchIndexElement property="time" type="Binary" order="ascending"/>
        </fetchIndex>
        <fetchIndex name="byMagnitude">
            <fetchIndexElement property="magnitude" type="Binary" order="ascending"/>
        </fetchIndex>
    </entity>
    <entity name="Region" representedClassName="Region" syncable="YES">
        <attribute name="name" attributeType="String"/>
        <attribute name="plate" optional="YES" attributeType="String"/>
    </entity>
    <configuration name="Default">
        <memberEntity name="Quake"/>
        <memberEntity name="Region"/>
    </configuration>
</model>
"""#

    static let words = #"""
<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<!-- OpenCoreData's own sample model (written for this project): the seeds' word-list benchmark. -->
<model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0" lastSavedToolsVersion="22758" systemVersion="23E224" minimumToolsVersion="Automatic" sourceLanguage="Swift" userDefinedModelVersionIdentifier="1">
    <entity name="Word" representedClassName="Word" syncable="YES">
        <attribute name="text" attributeType="String"/>
        <attribute name="normalizedText" attributeType="String"/>
        <attribute name="length" attributeType="Integer 16" defaultValueString="0" usesScalarValueType="YES"/>
        <attribute name="firstLetter" attributeType="String"/>
        <fetchIndex name="byNormalizedText">
            <fetchIndexElement property="normalizedText" type="Binary" order="ascending"/>
        </fetchIndex>
    </entity>
    <configuration name="Default">
        <memberEntity name="Word"/>
    </configuration>
</model>
"""#

    static let library = #"""
<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<!-- OpenCoreData's own sample model (written for this project): inheritance (abstract Item, Book and Magazine) and ordered relationships (Shelf.items). -->
<model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0" lastSavedToolsVersion="22758" systemVersion="23E224" minimumToolsVersion="Automatic" sourceLanguage="Swift" userDefinedModelVersionIdentifier="1">
    <entity name="Author" representedClassName="Author" syncable="YES">
        <attribute name="name" attributeType="String"/>
        <attribute name="born" optional="YES" attributeType="Date" usesScalarValueType="NO"/>
        <relationship name="books" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="Book" inverseName="authors" inverseEntity="Book"/>
    </entity>
    <entity name="Book" representedClassName="Book" parentEntity="Item" syncable="YES">
        <attribute name="isbn" attributeType="String"/>
        <attribute name="pageCount" attributeType="Integer 32" minValueString="1" defaultValueString="100" usesScalarValueType="YES"/>
        <relationship name="authors" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="Author" inverseName="books" inverseEntity="Author"/>
    </entity>
    <entity name="Item" representedClassName="Item" isAbstract="YES" syncable="YES">
        <attribute name="title" attributeType="String"/>
        <attribute name="normalizedTitle" attributeType="String"/>
        <attribute name="published" optional="YES" attributeType="Date" usesScalarValueType="NO"/>
        <relationship name="shelf" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Shelf" inverseName="items" inverseEntity="Shelf"/>
    </entity>
    <entity name="Magazine" representedClassName="Magazine" parentEntity="Item" syncable="YES">
        <attribute name="issueNumber" attributeType="Integer 16" minValueString="1" defaultValueString="1" usesScalarValueType="YES"/>
        <attribute name="publisher" optional="YES" attributeType="String"/>
    </entity>
    <entity name="Shelf" representedClassName="Shelf" syncable="YES">
        <attribute name="name" attributeType="String"/>
        <attribute name="location" optional="YES" attributeType="String"/>
        <relationship name="items" optional="YES" toMany="YES" deletionRule="Nullify" ordered="YES" destinationEntity="Item" inverseName="shelf" inverseEntity="Item"/>
    </entity>
    <configuration name="Default">
        <memberEntity name="Author"/>
        <memberEntity name="Book"/>
        <memberEntity name="Item"/>
        <memberEntity name="Magazine"/>
        <memberEntity name="Shelf"/>
    </configuration>
</model>
"""#
}
