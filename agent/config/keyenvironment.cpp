#include "agent/config/keyenvironment.h"

#include "agent/providers/providerfactory.h"
#include "agent/providers/providerkind.h"

#include <QHash>

#include <cstring>
#include <mutex>

#ifdef Q_OS_UNIX
#include <unistd.h>
#endif

using namespace Qt::StringLiterals;

namespace Loopscope {

namespace {

std::mutex takenMutex;
QHash<QString, QString> &takenValues()
{
    static QHash<QString, QString> values;
    return values;
}

#ifdef Q_OS_UNIX
// The "NAME=value" strings of the environment, where they are: in the block the kernel copied at
// exec (what /proc/<pid>/environ shows) unless someone set the variable since.
QList<char *> entriesOf(const QByteArray &name)
{
    QList<char *> entries;
    const QByteArray prefix = name + '=';
    for (char **entry = environ; entry && *entry; ++entry) {
        if (std::strncmp(*entry, prefix.constData(), size_t(prefix.size())) == 0)
            entries.append(*entry);
    }
    return entries;
}
#endif

} // namespace

QString KeyEnvironment::take(const QString &name)
{
    if (name.isEmpty())
        return {};
    const QByteArray localName = name.toLocal8Bit();
    std::lock_guard lock(takenMutex);
    if (qEnvironmentVariableIsSet(localName.constData())) {
        takenValues().insert(name, qEnvironmentVariable(localName.constData()).trimmed());
#ifdef Q_OS_UNIX
        const QList<char *> entries = entriesOf(localName);
        qunsetenv(localName.constData());
        // unsetenv() only drops the pointers; the bytes stay readable through /proc.
        for (char *entry : entries)
            std::memset(entry, 0, std::strlen(entry));
#else
        qunsetenv(localName.constData());
#endif
    }
    return takenValues().value(name);
}

QString KeyEnvironment::value(const QString &name)
{
    if (name.isEmpty())
        return {};
    const QByteArray localName = name.toLocal8Bit();
    std::lock_guard lock(takenMutex);
    if (qEnvironmentVariableIsSet(localName.constData()))
        return qEnvironmentVariable(localName.constData()).trimmed();
    return takenValues().value(name);
}

void KeyEnvironment::takeAll(const QStringList &names)
{
    for (const QString &name : names)
        take(name);
}

QStringList KeyEnvironment::wellKnownNames()
{
    QStringList names;
    for (ProviderKind kind : providerKinds()) {
        const QString name = defaultApiKeyEnv(kind);
        if (!name.isEmpty())
            names.append(name);
    }
    for (const QString &name : {u"GOOGLE_API_KEY"_s, u"OLLAMA_API_KEY"_s, u"OPENROUTER_API_KEY"_s,
                                u"MISTRAL_API_KEY"_s, u"GROQ_API_KEY"_s, u"DEEPSEEK_API_KEY"_s,
                                u"XAI_API_KEY"_s, u"TOGETHER_API_KEY"_s, u"AZURE_OPENAI_API_KEY"_s}) {
        if (!names.contains(name))
            names.append(name);
    }
    return names;
}

} // namespace Loopscope
