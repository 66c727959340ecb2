#include "agent/providers/providerkind.h"

#include "agent/conversation/enumnames.h"
using namespace Qt::StringLiterals;

namespace Loopscope {

constexpr EnumName<ProviderKind> ProviderKindNames[] = {
    {ProviderKind::OpenAi, u"openai"},
    {ProviderKind::Anthropic, u"anthropic"},
    {ProviderKind::Gemini, u"gemini"},
    {ProviderKind::Ollama, u"ollama"},
};

QList<ProviderKind> providerKinds()
{
    QList<ProviderKind> kinds;
    for (const EnumName<ProviderKind> &entry : ProviderKindNames)
        kinds.append(entry.value);
    return kinds;
}

QString providerKindName(ProviderKind kind)
{
    return nameOf(ProviderKindNames, kind);
}

std::optional<ProviderKind> providerKindFromName(const QString &name)
{
    // Typed by people (--provider, settings files): forgiving about case and spaces.
    return valueNamed(ProviderKindNames, name.trimmed().toLower());
}

QUrl defaultBaseUrl(ProviderKind kind)
{
    switch (kind) {
    case ProviderKind::OpenAi: return QUrl(u"https://api.openai.com/v1"_s);
    case ProviderKind::Anthropic: return QUrl(u"https://api.anthropic.com"_s);
    case ProviderKind::Gemini: return QUrl(u"https://generativelanguage.googleapis.com"_s);
    case ProviderKind::Ollama: return QUrl(u"http://localhost:11434"_s);
    }
    return {};
}

} // namespace Loopscope
