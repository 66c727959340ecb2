#pragma once

#include "agent/providers/providerkind.h"

#include <QCoreApplication>
#include <QJsonObject>
#include <QList>
#include <QString>
#include <QStringList>

#include <optional>

namespace Loopscope {

// Where a base's embeddings come from: the provider and model, never the key (only the variable holding it).
struct KnowledgeEmbeddingSource
{
    ProviderKind kind = ProviderKind::OpenAi;
    QUrl baseUrl; // empty: the provider's default
    QString model;
    QString apiKeyEnv; // empty: the provider runs without a key (Ollama)
    // The window's provider profile it was chosen from (its id, never its key): the window reads the
    // key as chat does, from that profile's keychain entry or key file, before apiKeyEnv. Empty from
    // the command line.
    QString profileId;

    bool isSet() const { return !model.isEmpty(); }
    bool operator==(const KnowledgeEmbeddingSource &) const = default;
};

// What the user said a knowledge base is: its name, its folders and files, and where its embeddings come
// from (none: the base is searched by its words only).
struct KnowledgeBaseDefinition
{
    QString name;
    QStringList paths; // absolute, cleaned
    KnowledgeEmbeddingSource embedding;

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
