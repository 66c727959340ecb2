#include "ui/chat/mcpresourcesdialog.h"

#include "agent/mcp/mcphub.h"

#include <QDialogButtonBox>
#include <QFontDatabase>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QJsonObject>
#include <QLabel>
#include <QLineEdit>
#include <QLocale>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QStackedWidget>
#include <QTime>
#include <QTreeWidget>
#include <QVBoxLayout>

using namespace Qt::StringLiterals;

namespace Loopscope::Ui {

namespace {

constexpr int KindRole = Qt::UserRole;
constexpr int ServerRole = Qt::UserRole + 1;
constexpr int NameRole = Qt::UserRole + 2;
constexpr int LabelRole = Qt::UserRole + 3; // a resource's title, else its name

QLabel *wrappingLabel(QWidget *parent)
{
    auto *label = new QLabel(parent);
    label->setWordWrap(true);
    label->setTextFormat(Qt::PlainText);
    label->setTextInteractionFlags(Qt::TextSelectableByMouse);
    return label;
}

} // namespace

McpResourcesDialog::McpResourcesDialog(McpHub *hub, QWidget *parent)
    : QDialog(parent)
    , m_hub(hub)
    , m_tree(new QTreeWidget(this))
    , m_pages(new QStackedWidget(this))
    , m_promptTitle(wrappingLabel(this))
    , m_promptDescription(wrappingLabel(this))
    , m_promptForm(new QFormLayout)
    , m_promptFields(new QWidget(this))
    , m_resourceTitle(wrappingLabel(this))
    , m_resourceText(new QPlainTextEdit(this))
    , m_status(wrappingLabel(this))
    , m_insert(new QPushButton(tr("&Insert into Message"), this))
{
    setWindowTitle(tr("MCP Prompts and Resources"));
    m_tree->setObjectName(u"mcpResourceTree"_s);
    m_tree->setAccessibleName(tr("Prompts and resources of the MCP servers"));
    m_tree->setHeaderHidden(true);
    m_resourceText->setObjectName(u"mcpResourceText"_s);
    m_resourceText->setAccessibleName(tr("The resource's text"));
    m_resourceText->setReadOnly(true);
    m_resourceText->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    m_insert->setObjectName(u"mcpInsertButton"_s);
    m_status->setObjectName(u"mcpResourceStatus"_s);
    m_status->hide();

    auto *hint = new QLabel(tr("Choose a prompt or a resource of a running MCP server. A prompt's text goes "
                               "into your message, a resource goes with it as an attachment; the model does "
                               "not see these as tools."),
                            m_pages);
    hint->setWordWrap(true);
    hint->setAlignment(Qt::AlignCenter);
    hint->setForegroundRole(QPalette::PlaceholderText);

    QFont bold = font();
    bold.setBold(true);
    m_promptTitle->setFont(bold);
    m_resourceTitle->setFont(bold);
    auto *promptPage = new QWidget(m_pages);
    m_promptFields->setLayout(m_promptForm);
    m_promptForm->setContentsMargins(0, 0, 0, 0);
    auto *promptLayout = new QVBoxLayout(promptPage);
    promptLayout->setContentsMargins(0, 0, 0, 0);
    promptLayout->addWidget(m_promptTitle);
    promptLayout->addWidget(m_promptDescription);
    promptLayout->addWidget(m_promptFields);
    promptLayout->addStretch(1);
    auto *resourcePage = new QWidget(m_pages);
    auto *resourceLayout = new QVBoxLayout(resourcePage);
    resourceLayout->setContentsMargins(0, 0, 0, 0);
    resourceLayout->addWidget(m_resourceTitle);
    resourceLayout->addWidget(m_resourceText, 1);
    m_pages->addWidget(hint);
    m_pages->addWidget(promptPage);
    m_pages->addWidget(resourcePage);

    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
    buttons->addButton(m_insert, QDialogButtonBox::ActionRole);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    connect(m_insert, &QPushButton::clicked, this, &McpResourcesDialog::insert);
    connect(m_tree, &QTreeWidget::currentItemChanged, this, [this](QTreeWidgetItem *item) { choose(item); });

    auto *columns = new QHBoxLayout;
    columns->addWidget(m_tree, 2);
    columns->addWidget(m_pages, 3);
    auto *layout = new QVBoxLayout(this);
    layout->addLayout(columns, 1);
    layout->addWidget(m_status);
    layout->addWidget(buttons);
    const QFontMetrics metrics = fontMetrics();
    resize(metrics.averageCharWidth() * 100, metrics.lineSpacing() * 26);

    if (m_hub) {
        connect(m_hub, &McpHub::serverStateChanged, this, &McpResourcesDialog::refresh);
        connect(m_hub, &McpHub::toolsChanged, this, &McpResourcesDialog::refresh);
    }
    refresh();
}

McpResourcesDialog::~McpResourcesDialog()
{
    unfollow();
}

void McpResourcesDialog::refresh()
{
    const QString server = m_server;
    const QString name = m_name;
    const Kind kind = m_kind;
    m_tree->clear();
    if (!m_hub) {
        choose(nullptr);
        return;
    }
    QTreeWidgetItem *reselect = nullptr;
    for (const McpServerConfig &config : m_hub->servers()) {
        McpClient *client = m_hub->client(config.name);
        if (!client || client->state() != McpClient::State::Ready)
            continue;
        // A server that announces new lists later shows them at once.
        connect(client, &McpClient::promptsChanged, this, &McpResourcesDialog::refresh, Qt::UniqueConnection);
        connect(client, &McpClient::resourcesChanged, this, &McpResourcesDialog::refresh,
                Qt::UniqueConnection);
        const QList<McpPromptInfo> prompts = client->prompts();
        const QList<McpResourceInfo> resources = client->resources();
        if (prompts.isEmpty() && resources.isEmpty())
            continue;
        auto *top = new QTreeWidgetItem(m_tree, {config.name});
        top->setData(0, KindRole, ServerItem);
        top->setFlags(Qt::ItemIsEnabled);
        for (const McpPromptInfo &prompt : prompts) {
            auto *item = new QTreeWidgetItem(
                top, {tr("Prompt: %1").arg(prompt.title.isEmpty() ? prompt.name : prompt.title)});
            item->setToolTip(0, prompt.description);
            item->setData(0, KindRole, PromptItem);
            item->setData(0, ServerRole, config.name);
            item->setData(0, NameRole, prompt.name);
            if (kind == PromptItem && server == config.name && name == prompt.name)
                reselect = item;
        }
        for (const McpResourceInfo &resource : resources) {
            const QString label = !resource.title.isEmpty()  ? resource.title
                                  : !resource.name.isEmpty() ? resource.name
                                                             : resource.uri;
            auto *item = new QTreeWidgetItem(top, {tr("Resource: %1").arg(label)});
            item->setToolTip(0, resource.description.isEmpty() ? resource.uri
                                                               : resource.description + u'\n' + resource.uri);
            item->setData(0, KindRole, ResourceItem);
            item->setData(0, ServerRole, config.name);
            item->setData(0, NameRole, resource.uri);
            item->setData(0, LabelRole, resource.title.isEmpty() ? resource.name : resource.title);
            if (kind == ResourceItem && server == config.name && name == resource.uri)
                reselect = item;
        }
    }
    m_tree->expandAll();
    if (m_tree->topLevelItemCount() == 0) {
        auto *none = new QTreeWidgetItem(m_tree, {tr("No running MCP server offers prompts or resources.")});
        none->setFlags(Qt::NoItemFlags);
    }
    if (reselect && kind == PromptItem) {
        // Keep what the user typed: select without rebuilding the form.
        const QSignalBlocker blocker(m_tree);
        m_tree->setCurrentItem(reselect);
    } else {
        m_tree->setCurrentItem(reselect);
        if (!reselect)
            choose(nullptr);
    }
}

void McpResourcesDialog::choose(QTreeWidgetItem *item)
{
    ++m_generation;
    setStatus(QString());
    const bool sameResource = item && Kind(item->data(0, KindRole).toInt()) == ResourceItem
                              && item->data(0, ServerRole).toString() == m_followedServer
                              && item->data(0, NameRole).toString() == m_followedUri;
    if (!sameResource)
        unfollow();
    const Kind kind = item ? Kind(item->data(0, KindRole).toInt()) : ServerItem;
    if (!item || kind == ServerItem) {
        m_kind = ServerItem;
        m_server.clear();
        m_name.clear();
        m_pages->setCurrentIndex(0);
        updateInsertEnabled();
        return;
    }
    if (kind == PromptItem)
        showPrompt(item->data(0, ServerRole).toString(), item->data(0, NameRole).toString());
    else
        showResource(item->data(0, ServerRole).toString(), item->data(0, NameRole).toString(),
                     item->data(0, LabelRole).toString());
}

void McpResourcesDialog::showPrompt(const QString &server, const QString &name)
{
    m_kind = PromptItem;
    m_insert->setText(tr("&Insert into Message"));
    m_server = server;
    m_name = name;
    while (m_promptForm->rowCount() > 0)
        m_promptForm->removeRow(0);
    m_arguments.clear();
    m_requiredArguments.clear();
    McpClient *client = m_hub ? m_hub->client(server) : nullptr;
    McpPromptInfo prompt;
    if (client) {
        for (const McpPromptInfo &candidate : client->prompts()) {
            if (candidate.name == name)
                prompt = candidate;
        }
    }
    m_promptTitle->setText(prompt.title.isEmpty() ? name : prompt.title);
    m_promptDescription->setText(prompt.description);
    m_promptDescription->setVisible(!prompt.description.isEmpty());
    for (const McpPromptArgument &argument : std::as_const(prompt.arguments)) {
        auto *edit = new QLineEdit(m_promptFields);
        edit->setObjectName(u"mcpPromptArgument_"_s + argument.name);
        edit->setAccessibleName(argument.required ? tr("%1 (required)").arg(argument.name) : argument.name);
        edit->setPlaceholderText(argument.description);
        edit->setToolTip(argument.description);
        connect(edit, &QLineEdit::textChanged, this, &McpResourcesDialog::updateInsertEnabled);
        m_promptForm->addRow(argument.required ? tr("%1 *").arg(argument.name) : argument.name, edit);
        m_arguments.insert(argument.name, edit);
        if (argument.required)
            m_requiredArguments.append(argument.name);
    }
    m_pages->setCurrentIndex(1);
    updateInsertEnabled();
}

void McpResourcesDialog::showResource(const QString &server, const QString &uri, const QString &label)
{
    m_kind = ResourceItem;
    m_server = server;
    m_name = uri;
    m_resourceLabel = label;
    m_resourceFiles.clear();
    m_insert->setText(tr("&Attach to Message"));
    m_resourceTitle->setText(uri);
    m_resourceText->clear();
    m_resourceText->setPlaceholderText(tr("Reading…"));
    m_pages->setCurrentIndex(2);
    updateInsertEnabled();
    McpClient *client = m_hub ? m_hub->client(server) : nullptr;
    if (!client) {
        setStatus(tr("The MCP server “%1” is not running.").arg(server));
        return;
    }
    read(client, false);
    follow(client);
}

void McpResourcesDialog::read(McpClient *client, bool again)
{
    const int generation = m_generation;
    const QString label = m_resourceLabel;
    QPointer<McpResourcesDialog> self(this);
    // The client answers exactly once, also when it stops; the dialog may be gone by then.
    client->readResourceContents(
        m_name, [self, generation, label, again](const QJsonObject &result, const QString &error) {
            if (!self || generation != self->m_generation)
                return;
            self->m_resourceText->setPlaceholderText(QString());
            if (!error.isEmpty()) {
                self->setStatus(error);
            } else {
                // Shown as text (a blob described); attached as what it is.
                self->m_resourceText->setPlainText(McpContent::resourceResultText(result));
                self->m_resourceFiles = McpContent::resourceFiles(result, label);
                if (again)
                    self->setStatus(tr("Changed on the server at %1; shown as it is now.")
                                        .arg(QLocale().toString(QTime::currentTime(), QLocale::ShortFormat)));
            }
            self->updateInsertEnabled();
        });
}

void McpResourcesDialog::follow(McpClient *client)
{
    if (!client->supportsResourceSubscriptions() || (m_followedServer == m_server && m_followedUri == m_name))
        return;
    m_followedServer = m_server;
    m_followedUri = m_name;
    const QString server = m_server;
    m_updates = connect(client, &McpClient::resourceUpdated, this,
                        [this, server](const QString &uri) { onResourceUpdated(server, uri); });
    // Without a subscription the resource is still shown; only its changes are not followed.
    client->subscribeResource(m_name, [](const QString &) {});
}

void McpResourcesDialog::unfollow()
{
    if (m_followedServer.isEmpty())
        return;
    disconnect(m_updates);
    McpClient *client = m_hub ? m_hub->client(m_followedServer) : nullptr;
    if (client)
        client->unsubscribeResource(m_followedUri);
    m_followedServer.clear();
    m_followedUri.clear();
}

void McpResourcesDialog::onResourceUpdated(const QString &server, const QString &uri)
{
    if (m_kind != ResourceItem || server != m_server || uri != m_name)
        return;
    McpClient *client = m_hub ? m_hub->client(server) : nullptr;
    if (!client)
        return;
    ++m_generation; // an earlier read that is still under way shows an older version
    read(client, true);
}

void McpResourcesDialog::insert()
{
    if (m_kind == ResourceItem) {
        for (const McpContent::ResourceFile &file : std::as_const(m_resourceFiles))
            emit attachRequested(file.name, file.bytes);
        accept();
        return;
    }
    if (m_kind != PromptItem)
        return;
    McpClient *client = m_hub ? m_hub->client(m_server) : nullptr;
    if (!client) {
        setStatus(tr("The MCP server “%1” is not running.").arg(m_server));
        return;
    }
    QJsonObject arguments;
    for (auto it = m_arguments.cbegin(); it != m_arguments.cend(); ++it) {
        if (!it.value()->text().isEmpty())
            arguments.insert(it.key(), it.value()->text());
    }
    const int generation = ++m_generation;
    m_insert->setEnabled(false);
    setStatus(tr("Asking “%1” for the prompt…").arg(m_server));
    QPointer<McpResourcesDialog> self(this);
    client->getPrompt(m_name, arguments, [self, generation](const QString &text, const QString &error) {
        if (!self || generation != self->m_generation)
            return;
        self->updateInsertEnabled();
        if (!error.isEmpty()) {
            self->setStatus(error);
            return;
        }
        self->setStatus(QString());
        emit self->insertRequested(text);
        self->accept();
    });
}

void McpResourcesDialog::updateInsertEnabled()
{
    bool enabled = false;
    if (m_kind == PromptItem) {
        enabled = true;
        for (const QString &name : std::as_const(m_requiredArguments))
            enabled = enabled && !m_arguments.value(name)->text().trimmed().isEmpty();
    } else if (m_kind == ResourceItem) {
        enabled = !m_resourceFiles.isEmpty();
    }
    m_insert->setEnabled(enabled);
}

void McpResourcesDialog::setStatus(const QString &text)
{
    m_status->setText(text);
    m_status->setVisible(!text.isEmpty());
}

} // namespace Loopscope::Ui
