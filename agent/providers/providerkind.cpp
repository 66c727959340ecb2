#include "agent/providers/providerkind.h"

using namespace Qt::StringLiterals;

namespace Loopscope {

QString providerKindName(ProviderKind kind)
{
    switch (kind) {
    case ProviderKind::OpenAi: return u"openai"_s;
    case ProviderKind::Anthropic: return u"anthropic"_s;
    case ProviderKind::Gemini: return u"gemini"_s;
    case ProviderKind::Ollama: return u"ollama"_s;
    }
    return {};
}

std::optional<ProviderKind> providerKindFromName(const QString &name)
{
    for (auto kind :
         {ProviderKind::OpenAi, ProviderKind::Anthropic, ProviderKind::Gemini, ProviderKind::Ollama}) {
        if (providerKindName(kind) == name.trimmed().toLower())
            return kind;
    }
    return std::nullopt;
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
