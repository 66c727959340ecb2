#include "app/launch/provideroptions.h"

#include "agent/providers/providerfactory.h"

#include <QCommandLineParser>

using namespace Qt::StringLiterals;

namespace Loopscope::Launch {

ProviderOptions::ProviderOptions(bool withModel)
    : m_provider(
        u"provider"_s,
        tr("Wire protocol: openai (also Ollama /v1, llama.cpp, vLLM, LM Studio, OpenRouter), anthropic, "
           "gemini or ollama."),
        u"kind"_s, u"openai"_s)
    , m_baseUrl(
          u"base-url"_s,
          tr("The API's base URL, e.g. https://api.openai.com/v1 or http://localhost:11434. Default: the "
             "provider's."),
          u"url"_s)
    , m_model(u"model"_s, tr("The model name."), u"name"_s)
    , m_apiKeyEnv(
          u"api-key-env"_s,
          tr("The environment variable holding the API key. Default: OPENAI_API_KEY, ANTHROPIC_API_KEY or "
             "GEMINI_API_KEY (Ollama needs none)."),
          u"var"_s)
    , m_withModel(withModel)
{}

void ProviderOptions::addTo(QCommandLineParser &parser) const
{
    if (m_withModel)
        parser.addOptions({m_provider, m_baseUrl, m_model, m_apiKeyEnv});
    else
        parser.addOptions({m_provider, m_baseUrl, m_apiKeyEnv});
}

bool ProviderOptions::isAnySet(const QCommandLineParser &parser) const
{
    return parser.isSet(m_provider) || parser.isSet(m_baseUrl) || (m_withModel && parser.isSet(m_model))
           || parser.isSet(m_apiKeyEnv);
}

ProviderOptions::Choice ProviderOptions::choice(const QCommandLineParser &parser) const
{
    Choice choice;
    choice.kind = parser.value(m_provider);
    if (parser.isSet(m_baseUrl))
        choice.baseUrl = parser.value(m_baseUrl);
    if (m_withModel)
        choice.model = parser.value(m_model);
    if (parser.isSet(m_apiKeyEnv))
        choice.apiKeyEnv = parser.value(m_apiKeyEnv);
    return choice;
}

std::optional<ProviderProfile> ProviderOptions::profile(const QCommandLineParser &parser,
                                                        QString *error) const
{
    return profile(choice(parser), tr("with --model"), error);
}

std::optional<ProviderProfile> ProviderOptions::profile(const Choice &choice, const QString &modelHint,
                                                        QString *error)
{
    ProviderProfile profile;
    profile.id = u"command-line"_s;
    const auto kind = providerKindFromName(choice.kind);
    if (!kind) {
        *error = tr("unknown provider \"%1\": use openai, anthropic, gemini or ollama").arg(choice.kind);
        return std::nullopt;
    }
    profile.kind = *kind;
    profile.baseUrl = choice.baseUrl ? QUrl(*choice.baseUrl) : defaultBaseUrl(profile.kind);
    if (!profile.baseUrl.isValid() || !profile.baseUrl.scheme().startsWith(u"http"_s)) {
        *error = tr("the base URL \"%1\" is not an http(s) URL").arg(choice.baseUrl.value_or(QString()));
        return std::nullopt;
    }
    profile.model = choice.model;
    if (profile.model.isEmpty()) {
        *error = tr("name the model %1").arg(modelHint);
        return std::nullopt;
    }
    profile.apiKeyEnv = choice.apiKeyEnv.value_or(defaultApiKeyEnv(profile.kind));
    profile.name = tr("%1 (command line)").arg(profile.model);
    return profile;
}

} // namespace Loopscope::Launch
