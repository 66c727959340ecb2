#pragma once

#include <QCoreApplication>
#include <QJsonObject>
#include <QList>
#include <QString>
#include <QStringList>

#include <optional>

namespace Loopscope {

// What the user said a knowledge base is: its name and its folders and files.
struct KnowledgeBaseDefinition
{
    QString name;
    QStringList paths; // absolute, cleaned

    QJsonObject toJson() const;
    static std::optional<KnowledgeBaseDefinition> fromJson(const QJsonObject &object);
    bool operator==(const KnowledgeBaseDefinition &) const = default;
};

/*!
    The knowledge bases kept in one folder (the app's data folder's
    "knowledge"), each as NAME.json, its definition, beside NAME.sqlite, its
    index. The definition is the user's and is written atomically; the index is
    derived from it and can always be built again, which is what a damaged one
    is.
*/
class KnowledgeLibrary final
{
    Q_DECLARE_TR_FUNCTIONS(Loopscope::KnowledgeLibrary)

public:
    explicit KnowledgeLibrary(QString directory = defaultDirectory());

    // AppDataLocation/knowledge.
    static QString defaultDirectory();
    // Letters, digits, '.', '_' and '-', not starting with '.', at most 64 characters.
    static bool isValidName(const QString &name);

    QString directory() const { return m_directory; }
    QString databasePath(const QString &name) const;

    // Sorted by name; a definition that does not parse is left out.
    QList<KnowledgeBaseDefinition> bases() const;
    std::optional<KnowledgeBaseDefinition> base(const QString &name) const;

    // Adds a new base (the paths made absolute); an empty string, or why not.
    QString add(const KnowledgeBaseDefinition &definition);
    // Removes the definition and the index; an empty string, or why not.
    QString remove(const QString &name);

private:
    QString definitionPath(const QString &name) const;

    QString m_directory;
};

} // namespace Loopscope
