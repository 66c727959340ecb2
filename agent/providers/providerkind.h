#pragma once

#include <QList>
#include <QString>
#include <QUrl>

#include <optional>

namespace Loopscope {

/*!
    The wire formats Loopscope speaks. It lives with the providers, not with
    the profiles that store it, so that choosing a protocol needs nothing from
    config/, which sits above providers/.
*/
enum class ProviderKind { OpenAi, Anthropic, Gemini, Ollama };
QList<ProviderKind> providerKinds();         // every kind, in the order the enum lists them
QString providerKindName(ProviderKind kind); // "openai", "anthropic", "gemini", "ollama"
std::optional<ProviderKind> providerKindFromName(const QString &name);
QUrl defaultBaseUrl(ProviderKind kind);

} // namespace Loopscope
