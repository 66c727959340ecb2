#include "ui/inspector/mcplogpanel.h"

#include "agent/mcp/mcpmessagelog.h"
#include "ui/inspector/mcplogfiltermodel.h"

#include <QApplication>
#include <QClipboard>
#include <QComboBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QJsonDocument>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QScrollBar>
#include <QSplitter>
#include <QTableView>
#include <QTimer>
#include <QVBoxLayout>

using namespace Qt::StringLiterals;

namespace Loopscope::Ui {

McpLogPanel::McpLogPanel(McpMessageLog *log, QWidget *parent)
    : QWidget(parent)
    , m_filter(new McpLogFilterModel(this))
    , m_method(new QLineEdit(this))
    , m_direction(new QComboBox(this))
    , m_text(new QLineEdit(this))
    , m_table(new QTableView(this))
    , m_detail(new QPlainTextEdit(this))
    , m_copy(new QPushButton(tr("&Copy"), this))
    , m_copyAll(new QPushButton(tr("Copy &All"), this))
    , m_clear(new QPushButton(tr("Cl&ear"), this))
    , m_followTimer(new QTimer(this))
{
    m_filter->setSourceModel(log);
    m_method->setPlaceholderText(tr("Method"));
    m_method->setAccessibleName(tr("Filter by method"));
    m_method->setClearButtonEnabled(true);
    m_direction->addItem(tr("Both ways"), int(McpLogFilterModel::Direction::Both));
    m_direction->addItem(tr("Sent"), int(McpLogFilterModel::Direction::Sent));
    m_direction->addItem(tr("Received"), int(McpLogFilterModel::Direction::Received));
    m_direction->setAccessibleName(tr("Filter by direction"));
    m_text->setPlaceholderText(tr("Text in the message"));
    m_text->setAccessibleName(tr("Filter by text"));
    m_text->setClearButtonEnabled(true);
    connect(m_method, &QLineEdit::textChanged, m_filter, &McpLogFilterModel::setMethod);
    connect(m_text, &QLineEdit::textChanged, m_filter, &McpLogFilterModel::setText);
    connect(m_direction, &QComboBox::currentIndexChanged, this, [this] {
        m_filter->setDirection(McpLogFilterModel::Direction(m_direction->currentData().toInt()));
    });

    m_table->setModel(m_filter);
    m_table->setAccessibleName(tr("JSON-RPC messages"));
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setSelectionMode(QAbstractItemView::SingleSelection);
    m_table->setWordWrap(false);
    m_table->verticalHeader()->hide();
    m_table->horizontalHeader()->setStretchLastSection(true);
    m_table->horizontalHeader()->setSectionResizeMode(QHeaderView::Interactive);
    m_table->setColumnWidth(McpMessageLog::TimeColumn,
                            m_table->fontMetrics().horizontalAdvance(u"00:00:00.000__"_s));
    m_table->setColumnWidth(McpMessageLog::DirectionColumn,
                            m_table->fontMetrics().horizontalAdvance(u"Way__"_s));
    m_table->setColumnWidth(McpMessageLog::MethodColumn,
                            m_table->fontMetrics().horizontalAdvance(u"notifications/tools/list_changed"_s));
    connect(m_table->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
            &McpLogPanel::showSelected);
    // Follow new messages only while the user is at the bottom, so reading an old one is not disturbed.
    connect(m_table->verticalScrollBar(), &QScrollBar::valueChanged, this,
            [this](int value) { m_follow = value == m_table->verticalScrollBar()->maximum(); });
    // A burst of messages (a server's progress, a long list) scrolls once.
    m_followTimer->setSingleShot(true);
    m_followTimer->setInterval(16);
    connect(m_followTimer, &QTimer::timeout, m_table, &QTableView::scrollToBottom);
    connect(m_filter, &QAbstractItemModel::rowsInserted, this, [this] {
        if (m_follow && !m_followTimer->isActive())
            m_followTimer->start();
    });

    m_detail->setReadOnly(true);
    m_detail->setAccessibleName(tr("The chosen message"));
    m_detail->setLineWrapMode(QPlainTextEdit::NoWrap);
    m_copy->setToolTip(tr("Copy the chosen message as JSON"));
    m_copyAll->setToolTip(tr("Copy the messages shown, one JSON object per line"));
    m_clear->setToolTip(tr("Forget the messages logged so far"));
    connect(m_copy, &QPushButton::clicked, this, &McpLogPanel::copySelected);
    connect(m_copyAll, &QPushButton::clicked, this, &McpLogPanel::copyAll);
    connect(m_clear, &QPushButton::clicked, log, &McpMessageLog::clear);

    auto *filters = new QHBoxLayout;
    filters->addWidget(m_method, 1);
    filters->addWidget(m_direction);
    filters->addWidget(m_text, 2);
    auto *buttons = new QHBoxLayout;
    buttons->addWidget(m_copy);
    buttons->addWidget(m_copyAll);
    buttons->addStretch(1);
    buttons->addWidget(m_clear);
    auto *splitter = new QSplitter(Qt::Vertical, this);
    splitter->addWidget(m_table);
    splitter->addWidget(m_detail);
    splitter->setStretchFactor(0, 2);
    splitter->setStretchFactor(1, 1);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addLayout(filters);
    layout->addWidget(splitter, 1);
    layout->addLayout(buttons);
    showSelected();
}

McpLogPanel::~McpLogPanel() = default;

void McpLogPanel::showSelected()
{
    const QModelIndex current = m_table->currentIndex();
    m_copy->setEnabled(current.isValid());
    if (!current.isValid()) {
        m_detail->clear();
        return;
    }
    const QJsonObject message = current.data(McpMessageLog::MessageRole).toJsonObject();
    m_detail->setPlainText(QString::fromUtf8(QJsonDocument(message).toJson(QJsonDocument::Indented)));
}

void McpLogPanel::copySelected()
{
    const QModelIndex current = m_table->currentIndex();
    if (!current.isValid())
        return;
    const QJsonObject message = current.data(McpMessageLog::MessageRole).toJsonObject();
    QApplication::clipboard()->setText(
        QString::fromUtf8(QJsonDocument(message).toJson(QJsonDocument::Indented)));
}

void McpLogPanel::copyAll()
{
    QApplication::clipboard()->setText(QString::fromUtf8(m_filter->jsonLines()));
}

} // namespace Loopscope::Ui
