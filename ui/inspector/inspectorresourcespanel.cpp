#include "ui/inspector/inspectorresourcespanel.h"

#include "agent/mcp/mcpclient.h"
#include "ui/inspector/mcpresultview.h"

#include <QHBoxLayout>
#include <QHeaderView>
#include <QJsonObject>
#include <QLineEdit>
#include <QPushButton>
#include <QSplitter>
#include <QTreeWidget>
#include <QVBoxLayout>

using namespace Qt::StringLiterals;

namespace Loopscope::Ui {

namespace {

constexpr int UriRole = Qt::UserRole + 1;
// A server that pages forever must not keep the Inspector busy.
constexpr int MaxTemplatePages = 100;

} // namespace

InspectorResourcesPanel::InspectorResourcesPanel(QWidget *parent)
    : QWidget(parent)
    , m_tree(new QTreeWidget(this))
    , m_uri(new QLineEdit(this))
    , m_read(new QPushButton(tr("Rea&d"), this))
    , m_result(new McpResultView(this))
{
    m_tree->setHeaderLabels({tr("Name"), tr("URI")});
    m_tree->setAccessibleName(tr("Resources and resource templates"));
    m_tree->header()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_uri->setPlaceholderText(tr("Resource URI"));
    m_uri->setAccessibleName(tr("Resource URI"));
    m_uri->setToolTip(tr("A template's {variables} are yours to fill in before reading"));
    connect(m_tree, &QTreeWidget::currentItemChanged, this, &InspectorResourcesPanel::choose);
    connect(m_tree, &QTreeWidget::itemActivated, this, &InspectorResourcesPanel::read);
    connect(m_uri, &QLineEdit::returnPressed, this, &InspectorResourcesPanel::read);
    connect(m_read, &QPushButton::clicked, this, &InspectorResourcesPanel::read);

    auto *right = new QWidget(this);
    auto *rightLayout = new QVBoxLayout(right);
    rightLayout->setContentsMargins(0, 0, 0, 0);
    auto *row = new QHBoxLayout;
    row->addWidget(m_uri, 1);
    row->addWidget(m_read);
    rightLayout->addLayout(row);
    rightLayout->addWidget(m_result, 1);
    auto *splitter = new QSplitter(this);
    splitter->addWidget(m_tree);
    splitter->addWidget(right);
    splitter->setStretchFactor(1, 2);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(splitter);
    m_read->setEnabled(false);
    connect(m_uri, &QLineEdit::textChanged, this,
            [this](const QString &text) { m_read->setEnabled(m_client && !text.trimmed().isEmpty()); });
}

InspectorResourcesPanel::~InspectorResourcesPanel() = default;

void InspectorResourcesPanel::setClient(McpClient *client)
{
    if (m_client != client) {
        if (m_client)
            disconnect(m_client, nullptr, this, nullptr);
        m_client = client;
        m_result->clear();
        m_uri->clear();
        if (client)
            connect(client, &McpClient::resourcesChanged, this, &InspectorResourcesPanel::reload);
    }
    reload();
}

void InspectorResourcesPanel::reload()
{
    ++m_generation;
    m_tree->clear();
    if (!m_client || m_client->state() != McpClient::State::Ready)
        return;
    auto *resources = new QTreeWidgetItem(m_tree, {tr("Resources")});
    for (const McpResourceInfo &resource : m_client->resources()) {
        auto *item = new QTreeWidgetItem(
            resources, {resource.name.isEmpty() ? resource.uri : resource.name, resource.uri});
        item->setData(0, UriRole, resource.uri);
        item->setToolTip(0, resource.description);
    }
    resources->setExpanded(true);
    const QJsonObject capabilities
        = m_client->startupInfo() ? m_client->startupInfo()->serverCapabilities : QJsonObject();
    if (capabilities.contains("resources"_L1))
        fetchTemplates({}, {}, 1);
}

void InspectorResourcesPanel::fetchTemplates(const QString &cursor, QJsonArray collected, int page)
{
    const int generation = m_generation;
    QJsonObject params;
    if (!cursor.isEmpty())
        params.insert(u"cursor"_s, cursor);
    QPointer<InspectorResourcesPanel> self(this);
    m_client->sendRequest(
        u"resources/templates/list"_s, params,
        [self, generation, collected, page](const QJsonObject &result, const QString &error) mutable {
            if (!self || generation != self->m_generation)
                return;
            for (const QJsonValue &value : result.value("resourceTemplates"_L1).toArray())
                collected.append(value);
            const QString next = result.value("nextCursor"_L1).toString();
            if (error.isEmpty() && !next.isEmpty() && self->m_client && page < MaxTemplatePages)
                self->fetchTemplates(next, collected, page + 1);
            else
                self->showTemplates(collected, error);
        });
}

void InspectorResourcesPanel::showTemplates(const QJsonArray &templates, const QString &error)
{
    auto *group = new QTreeWidgetItem(m_tree, {tr("Resource templates")});
    if (!error.isEmpty())
        group->setText(1, error);
    for (const QJsonValue &value : templates) {
        const QJsonObject entry = value.toObject();
        const QString uriTemplate = entry.value("uriTemplate"_L1).toString();
        auto *item = new QTreeWidgetItem(group, {entry.value("name"_L1).toString(uriTemplate), uriTemplate});
        item->setData(0, UriRole, uriTemplate);
        item->setToolTip(0, entry.value("description"_L1).toString());
    }
    group->setExpanded(true);
}

void InspectorResourcesPanel::choose()
{
    const QTreeWidgetItem *item = m_tree->currentItem();
    if (item && !item->data(0, UriRole).toString().isEmpty())
        m_uri->setText(item->data(0, UriRole).toString());
}

void InspectorResourcesPanel::read()
{
    const QString uri = m_uri->text().trimmed();
    if (!m_client || uri.isEmpty())
        return;
    const int generation = m_generation;
    m_result->showWaiting(tr("Reading %1…").arg(uri));
    QPointer<InspectorResourcesPanel> self(this);
    m_client->readResourceContents(uri,
                                   [self, generation, uri](const QJsonObject &result, const QString &error) {
                                       if (!self || generation != self->m_generation)
                                           return;
                                       if (error.isEmpty())
                                           self->m_result->showResource(uri, result);
                                       else
                                           self->m_result->showFailure(error);
                                   });
}

} // namespace Loopscope::Ui
