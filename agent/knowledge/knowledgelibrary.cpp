#include "agent/knowledge/knowledgelibrary.h"

#include "agent/knowledge/knowledgeindex.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QRegularExpression>
#include <QSaveFile>
#include <QStandardPaths>

#include <algorithm>

using namespace Qt::StringLiterals;

namespace Loopscope {

QJsonObject KnowledgeBaseDefinition::toJson() const
{
    QJsonObject object{{u"name"_s, name}, {u"paths"_s, QJsonArray::fromStringList(paths)}};
    if (embedding.isSet()) {
        QJsonObject source{{u"provider"_s, providerKindName(embedding.kind)}, {u"model"_s, embedding.model}};
        if (!embedding.baseUrl.isEmpty())
            source.insert(u"baseUrl"_s, embedding.baseUrl.toString());
        if (!embedding.apiKeyEnv.isEmpty())
            source.insert(u"apiKeyEnv"_s, embedding.apiKeyEnv);
        if (!embedding.profileId.isEmpty())
            source.insert(u"profile"_s, embedding.profileId);
        object.insert(u"embedding"_s, source);
    }
    return object;
}

std::optional<KnowledgeBaseDefinition> KnowledgeBaseDefinition::fromJson(const QJsonObject &object)
{
    KnowledgeBaseDefinition definition;
    definition.name = object.value(u"name"_s).toString();
    if (!KnowledgeLibrary::isValidName(definition.name) || !object.value(u"paths"_s).isArray())
        return std::nullopt;
    for (const QJsonValue &path : object.value(u"paths"_s).toArray()) {
        if (!path.isString())
            return std::nullopt;
        definition.paths.append(path.toString());
    }
    if (const QJsonValue value = object.value(u"embedding"_s); !value.isUndefined()) {
        const QJsonObject source = value.toObject();
        const auto kind = providerKindFromName(source.value(u"provider"_s).toString());
        definition.embedding.model = source.value(u"model"_s).toString();
        if (!kind || definition.embedding.model.isEmpty())
            return std::nullopt;
        definition.embedding.kind = *kind;
        definition.embedding.baseUrl = QUrl(source.value(u"baseUrl"_s).toString());
        definition.embedding.apiKeyEnv = source.value(u"apiKeyEnv"_s).toString();
        definition.embedding.profileId = source.value(u"profile"_s).toString();
    }
    return definition;
}

KnowledgeLibrary::KnowledgeLibrary(QString directory)
    : m_directory(std::move(directory))
{}

QString KnowledgeLibrary::defaultDirectory()
{
    return QStandardPaths::writableLocation(QStandardPaths::AppDataLocation) + u"/knowledge"_s;
}

bool KnowledgeLibrary::isValidName(const QString &name)
{
    static const QRegularExpression valid(u"^[A-Za-z0-9_-][A-Za-z0-9._-]{0,63}$"_s);
    return valid.match(name).hasMatch();
}

QString KnowledgeLibrary::databasePath(const QString &name) const
{
    return m_directory + u'/' + name + u".sqlite"_s;
}

QString KnowledgeLibrary::definitionPath(const QString &name) const
{
    return m_directory + u'/' + name + u".json"_s;
}

QList<KnowledgeBaseDefinition> KnowledgeLibrary::bases() const
{
    QList<KnowledgeBaseDefinition> result;
    const QStringList files = QDir(m_directory).entryList({u"*.json"_s}, QDir::Files, QDir::Name);
    for (const QString &file : files) {
        if (const auto definition = base(QFileInfo(file).completeBaseName()))
            result.append(*definition);
    }
    return result;
}

std::optional<KnowledgeBaseDefinition> KnowledgeLibrary::base(const QString &name) const
{
    if (!isValidName(name))
        return std::nullopt;
    QFile file(definitionPath(name));
    if (!file.open(QIODevice::ReadOnly))
        return std::nullopt;
    const auto definition
        = KnowledgeBaseDefinition::fromJson(QJsonDocument::fromJson(file.readAll()).object());
    if (!definition || definition->name != name)
        return std::nullopt;
    return definition;
}

QString KnowledgeLibrary::add(const KnowledgeBaseDefinition &definition)
{
    if (!isValidName(definition.name))
        return tr("'%1' is not a valid knowledge base name: use letters, digits, '.', '_' and '-'.")
            .arg(definition.name);
    if (definition.paths.isEmpty())
        return tr("A knowledge base needs at least one folder or file.");
    if (QFile::exists(definitionPath(definition.name)))
        return tr("There already is a knowledge base named '%1'.").arg(definition.name);
    KnowledgeBaseDefinition absolute{definition.name, {}, definition.embedding};
    for (const QString &path : definition.paths) {
        const QString cleaned = QDir::cleanPath(QFileInfo(path).absoluteFilePath());
        if (!absolute.paths.contains(cleaned))
            absolute.paths.append(cleaned);
    }
    if (!QDir().mkpath(m_directory))
        return tr("Cannot create the folder '%1'.").arg(m_directory);
    QSaveFile file(definitionPath(definition.name));
    if (!file.open(QIODevice::WriteOnly))
        return tr("Cannot write '%1': %2").arg(file.fileName(), file.errorString());
    file.write(QJsonDocument(absolute.toJson()).toJson());
    if (!file.commit())
        return tr("Cannot write '%1': %2").arg(file.fileName(), file.errorString());
    return {};
}

QString KnowledgeLibrary::remove(const QString &name)
{
    if (!base(name))
        return tr("There is no knowledge base named '%1'.").arg(name);
    if (const QString error = KnowledgeIndex::removeFiles(databasePath(name)); !error.isEmpty())
        return error;
    if (!QFile::remove(definitionPath(name)))
        return tr("Cannot remove '%1'.").arg(definitionPath(name));
    return {};
}

} // namespace Loopscope
